// How the MCP server introduces itself, the same from the window's endpoint and from the relay
// when no window answers; clients' configuration uses the name as the server's key.
export const MCP_SERVER_NAME = 'workspace-agent-tools';
export const MCP_SERVER_TITLE = 'Workspace Agent Tools';
