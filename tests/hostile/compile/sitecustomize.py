"""sitecustomize.py (and usercustomize.py, a copy made by the runner) shipped by a
submission: the site module imports them from sys.path at interpreter start-up,
before any compiler code; an isolated interpreter (python3 -I) never looks in the
submission for them."""
print("SHIPPED-CODE-RAN")
raise SystemExit(0)
