from deathzap_tui.cli import main

raise SystemExit(main())
