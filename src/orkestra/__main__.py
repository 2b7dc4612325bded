from orkestra.cli.entry import main

raise SystemExit(main())
