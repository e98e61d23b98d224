#!/bin/sh
# Calls the add tool of an everything server on $1 (its /mcp URL), 2026-07-28 style.
curl -s "$1" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
  -H 'mcp-protocol-version: 2026-07-28' \
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}'
