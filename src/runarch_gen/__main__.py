"""``python -m runarch_gen`` runs the command line."""

from runarch_gen.entry import main

if __name__ == "__main__":
    main()
