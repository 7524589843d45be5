"""``python -m runarch_gen`` runs the command line."""

from runarch_gen.cli import main

if __name__ == "__main__":
    main()
