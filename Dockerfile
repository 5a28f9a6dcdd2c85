# judge in a container. Multi-stage: build the judge, then a runtime image with
# the judge and what bots need to run, nothing else. BASE can name a locally
# imported image where no registry is reachable (see README.md, "Inside Docker").
ARG BASE=debian:bookworm

FROM ${BASE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential pkg-config libseccomp-dev libcap-dev libyaml-dev zlib1g-dev libjson-c-dev git \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN make clean && make bin/judge programs && make install PREFIX=/usr/local DESTDIR=/out

FROM ${BASE} AS runtime
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libseccomp2 libcap2 libyaml-0-2 zlib1g libjson-c5 gcc g++ libc6-dev python3 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/usr/local /usr/local
COPY --from=build /src/build/bots /usr/local/share/judge/bots
COPY --from=build /src/examples /usr/local/share/judge/examples
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/judge"]
CMD ["doctor"]
