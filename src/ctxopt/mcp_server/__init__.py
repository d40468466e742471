"""`ctxopt mcp`: the Model Context Protocol server over stdio (official MCP Python SDK).

It sits at the CLI's level: a front end over the app layer, like the commands. `service`
holds the warm state and runs each call (refresh first, then the app function), `reading`
serves chunks and line ranges confined to the repository, `answers` turns results into
tool results, `schema_check` holds every call to its tool's published input schema, and
`tools` registers the tools on the SDK's server.
"""
