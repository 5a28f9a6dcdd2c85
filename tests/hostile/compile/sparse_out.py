"""A submission that ships 20 sparse files of 15 MiB each (made by the runner): each
holds no block, so the copy into the jail's /data stays under the 16 MiB cap, but
written out in full they are 300 MiB in BOT_DIR on the host. The apparent size of
every file counts against the cap: refused, nothing delivered."""
print(-1)
