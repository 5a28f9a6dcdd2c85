"""A submission that ships a data file larger than the file-size limit."""
print(-1)
