# judge in a container. docs/docker.md gives the `docker run` / `podman run`
# flags it needs and what each one costs. Three stages:
#   build    compiles the judge and every jailed program (bots, hostile suite)
#   runtime  (the default target) the judge in /opt/judge, its language
#            profiles, the toolchains they run, the examples and their bots
#   test     runtime + the hostile suite and its runner (make test-docker)
# The judge lives in /opt/judge, not /usr: a jail's root shows /usr, and bots
# have no business reading the judge. BASE may name a locally imported image
# where no registry is reachable (tests/docker/run.sh imports a debootstrap'ed
# bookworm). APT_DIR is merged into /etc/apt; sources in it replace the base
# image's, so apt inside the build uses the host's mirror and proxy.
ARG BASE=debian:bookworm

FROM ${BASE} AS base
ARG APT_DIR=tests/docker/apt-default
COPY ${APT_DIR}/ /tmp/apt/
RUN if ls /tmp/apt/sources.list.d/* >/dev/null 2>&1; then \
      rm -f /etc/apt/sources.list /etc/apt/sources.list.d/*; fi \
 && cp -r /tmp/apt/. /etc/apt/ \
 && rm -rf /tmp/apt

FROM base AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      make gcc g++ libc6-dev pkg-config \
      libseccomp-dev libcap-dev libyaml-dev zlib1g-dev libdeflate-dev libjson-c-dev libwebsockets-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
ARG JUDGE_VERSION=unknown
RUN make -j2 VERSION="${JUDGE_VERSION}" bin/judge programs \
 && make install VERSION="${JUDGE_VERSION}" PREFIX=/opt/judge DESTDIR=/out

# The toolchains are the ones containers/*.yaml run: gcc (c), g++ (cpp),
# python3, and OpenJDK 17 (java).
FROM base AS runtime
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libseccomp2 libcap2 libyaml-0-2 zlib1g libdeflate0 libjson-c5 libwebsockets17 \
      gcc g++ libc6-dev python3 openjdk-17-jdk-headless \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/opt/judge /opt/judge
ENV PATH=/opt/judge/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
WORKDIR /opt/judge
COPY --from=build /src/examples examples
COPY --from=build /src/build/bots build/bots
ENTRYPOINT ["/opt/judge/bin/judge"]
CMD ["doctor"]

FROM runtime AS test
COPY --from=build /src/build/hostile build/hostile
COPY --from=build /src/build/progs build/progs
COPY --from=build /src/tests/lib.sh tests/lib.sh
COPY --from=build /src/tests/hostile tests/hostile
ENV JUDGE=/opt/judge/bin/judge
ENTRYPOINT []
CMD ["tests/hostile/run.sh"]
