"""A submission that ships a symbolic link to /etc/shadow (made by the runner):
copied into the jail as a link, and never into BOT_DIR."""
print(-1)
