"""Discovery: the files of a repository (git-aware listing, ignore and skip rules), the one git
runner, and the reading of a git change."""
