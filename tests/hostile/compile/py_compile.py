"""py_compile.py shipped by a submission: `python3 -m py_compile` with the
submission directory on sys.path would run this file instead of the real
module, at compile time, and report the broken entry beside it (main.py,
made by the runner) as compiling. Run isolated (python3 -I), the real
py_compile runs and finds the syntax error."""
import sys

print("SHIPPED-CODE-RAN")
sys.exit(0)
