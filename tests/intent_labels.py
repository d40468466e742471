"""Task texts labelled with the intent a reader gives them: bug reports as users and commit
messages word them, feature requests, questions, refactors, test work, debugging and review.
The intent test holds detect_intent to an accuracy floor over them."""

from __future__ import annotations

LABELLED: tuple[tuple[str, str], ...] = (
    # conventional-commit types name the kind of change, whatever the words after them
    ("feat: middleware.ClientIP, a replacement for middleware.RealIP", "feature_add"),
    ("feat(router): mount handlers that fail on a missing route", "feature_add"),
    ("fix(cookies): add the SameSite attribute it dropped", "bug_fix"),
    ("refactor: use cached slice in app.listen", "refactor"),
    ("perf: avoid an error allocation per request", "refactor"),
    ("test: cover the retry path that fails on 413", "test"),
    # bug_fix: reports of behaviour that is wrong, whatever the verb
    ("session cookie is not refreshed when SESSION_REFRESH_EACH_REQUEST is false", "bug_fix"),
    ("retry does not respect the Retry-After header for 413 responses", "bug_fix"),
    ("the --output flag does not set the file mode", "bug_fix"),
    ("Fix: Handle `backoffLimit` being `undefined`", "bug_fix"),
    ("timeout isn't applied to the total operation including retries", "bug_fix"),
    ("json.dumps crashes on nested dataclasses", "bug_fix"),
    ("Redirects drop the Authorization header even for the same host", "bug_fix"),
    ("the progress bar no longer updates after the first file", "bug_fix"),
    ("Middleware ignores the configured base path", "bug_fix"),
    ("help text shows the default twice for boolean flags", "bug_fix"),
    ("shell completion is missing subcommands of hidden commands", "bug_fix"),
    ("Parser accepts trailing commas it should reject", "bug_fix"),
    ("URL query parameters are double-encoded", "bug_fix"),
    ("Fix race in the connection pool when closing", "bug_fix"),
    ("router returns 404 instead of 405 for a wrong method", "bug_fix"),
    ("wrong exit code when a subcommand fails", "bug_fix"),
    ("Selector :has() matches elements it shouldn't", "bug_fix"),
    ("env var prefix is not applied to nested flags", "bug_fix"),
    ("Uploading a file larger than 2GB raises OverflowError", "bug_fix"),
    ("encoding is guessed incorrectly for responses without a charset", "bug_fix"),
    ("Prevent panic on nil handler in Mount", "bug_fix"),
    ("the static file server can't serve paths with spaces", "bug_fix"),
    ("deserializing u128 from a float silently loses precision", "bug_fix"),
    ("Correct the content length of HEAD responses", "bug_fix"),
    # feature_add
    ("add an export to CSV option", "feature_add"),
    ("Support the Retry-After header as an HTTP date", "feature_add"),
    ("Add `data` property to `HTTPError` with pre-parsed response", "feature_add"),
    ("implement a --dry-run flag for the deploy command", "feature_add"),
    ("Allow custom JSON encoders in the response helpers", "feature_add"),
    ("new option to disable colour in the table output", "feature_add"),
    ("Introduce a middleware for request ids", "feature_add"),
    ("expose the parsed version in the public API", "feature_add"),
    ("Make the max header size configurable", "feature_add"),
    ("let users register their own value parsers", "feature_add"),
    # explain
    ("how does the scheduler pick the next job?", "explain"),
    ("explain how the index is refreshed", "explain"),
    ("what does the graph rank do?", "explain"),
    ("where is the retry delay computed", "explain"),
    ("give me an overview of the routing code", "explain"),
    ("walk me through how a request is dispatched", "explain"),
    # refactor
    ("refactor and clean up the cache module", "refactor"),
    ("rename Context.Value to Context.Get", "refactor"),
    ("Extract the header parsing into its own module", "refactor"),
    ("simplify the option resolution code", "refactor"),
    ("move the tree helpers to a separate file", "refactor"),
    ("split the long dispatch function into smaller ones", "refactor"),
    # test
    ("write unit tests to raise coverage of the parser", "test"),
    ("add tests for the redirect handling", "test"),
    ("Improve flaky browser tests", "test"),
    ("test that the cookie jar survives pickling", "test"),
    ("add a spec for the session middleware", "test"),
    # debug
    ("why does the worker hang? trace it", "debug"),
    ("investigate the memory leak in the watcher", "debug"),
    ("the build is slow since the last release, find out why", "debug"),
    ("debug the intermittent deadlock in the pool", "debug"),
    ("where does this stack trace come from", "debug"),
    # review
    ("review this change", "review"),
    ("please review the diff for correctness", "review"),
    ("code review of the retry changes", "review"),
    ("look over this pull request before I merge it", "review"),
    ("check my patch for bugs", "review"),
    ("review the changes to the router for regressions", "review"),
)
