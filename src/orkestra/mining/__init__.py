"""Mining git history into institutional memory (PRODUCT.md §6).

git log ─one streamed process─▶ commit records + signals ─▶ commit index (`.orkestra/mining/`)
        └─▶ classification ledger (append-only JSONL) ─▶ changelogs and decision records.

Modules: `gitcmd` (the only way to run git), `reader` (log parsing), `conventional` and `signals`,
`index` and `sync`, `classify`, `report` (status, candidates), `validate`, `changelog`,
`decision_ids` and `renumber`, `noop` (the stdlib-only no-op sync). The ledgers' reader and quick
checks are registry files' code: `orkestra.registry.ledger` and `orkestra.registry.ledger_check`.
Nothing here imports heavy modules at import time.
"""
