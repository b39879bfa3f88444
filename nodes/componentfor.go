package nodes

// ComponentForTool names the component that shows a tool's result, or ""
// for a tool no component shows (a user's own tool, say).
func ComponentForTool(tool string) string { return componentForTool[tool] }
