"""`python -m ygo_timing`: the `ygo-timing` command."""
from ygo_timing.cli.main import main

if __name__ == "__main__":
    main(prog_name="ygo-timing")
