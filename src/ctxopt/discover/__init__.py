"""Discovery: the files of a repository (git-aware listing, ignore and skip rules, git runner)."""
