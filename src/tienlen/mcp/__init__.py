"""Agents over MCP: ``tienlen mcp``, a seat at the table for LLM agents (``tienlen[mcp]``).

`tienlen.mcp.session` plays one agent's game against library bots;
`tienlen.mcp.tools` is the tool set (``new_game``, ``observe``, ``legal_actions``,
``act``, ``explain``, ``result``, ``evaluate``, ``close_game``), each answer a text
in English or Vietnamese and a JSON object, built from the agent's own view only;
`tienlen.mcp.duplicate` measures an agent on duplicate deals. None imports the
``mcp`` SDK: only `tienlen.mcp.server`, which serves the tools over stdio, does.
docs/agents.md describes the tools.
"""
