// client.mjs lists and calls tripgraph's album tools with the official
// TypeScript MCP SDK, over Streamable HTTP or stdio:
//
//   node client.mjs http http://127.0.0.1:8081/mcp
//   node client.mjs stdio /path/to/tripgraph mcp --transport stdio --user demo
//
// It prints one line per check and exits 1 if any fails.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [mode, target, ...rest] = process.argv.slice(2);
const transport =
  mode === "http"
    ? new StreamableHTTPClientTransport(new URL(target))
    : new StdioClientTransport({ command: target, args: rest, env: process.env, stderr: "inherit" });

let failed = 0;
function check(name, ok, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"} ${mode} ${name}${detail ? ": " + detail : ""}`);
  if (!ok) failed++;
}

// call returns a tool's structured result after checking that its text
// block holds the same JSON.
async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  const text = res.content?.[0]?.text ?? "";
  if (res.isError) return { error: JSON.parse(text).error };
  const same = JSON.stringify(JSON.parse(text)) === JSON.stringify(res.structuredContent);
  check(`${name} has structuredContent and the same JSON text`, same);
  return res.structuredContent;
}

const client = new Client({ name: "tripgraph-interop", version: "1.0.0" });
await client.connect(transport);
try {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const want of ["getUserAlbums", "getAlbumByName", "getAlbumPhotos", "getPhotosByDate", "getPhotosByLocation",
    "searchPhotosAcrossAlbums", "getTripStats", "list-accommodations", "get-accommodation", "book-accommodation", "list-restaurants"]) {
    check(`tools/list has ${want}`, names.includes(want));
  }
  const search = tools.find((t) => t.name === "searchPhotosAcrossAlbums");
  check("tools have input and output schemas", !!search?.inputSchema?.properties?.query && !!search?.outputSchema);

  const { albums } = await call("getUserAlbums", {});
  check("getUserAlbums lists the demo albums", albums.length >= 12, `${albums.length} albums`);
  const byName = await call("getAlbumByName", { name: "lisboa" });
  check("getAlbumByName finds Lisboa", byName.albums.length === 1);
  const album = byName.albums[0];
  const photos = await call("getAlbumPhotos", { albumId: album.id, limit: 5 });
  check("getAlbumPhotos pages", photos.photos.length === 5 && photos.total === album.photoCount);
  const day = await call("getPhotosByDate", { albumId: album.id, date: photos.photos[0].takenAt });
  check("getPhotosByDate finds that day's photos", day.photos.length > 0);
  const belem = await call("getPhotosByLocation", { albumId: album.id, query: "belem" });
  check("getPhotosByLocation is accent-insensitive", belem.photos.length > 0);
  const found = await call("searchPhotosAcrossAlbums", { query: "aniversario da vivi" });
  check("searchPhotosAcrossAlbums finds aniversário da Vivi", found.total > 0 && found.photos.every((p) => p.albumName));
  const stats = await call("getTripStats", { albumId: album.id });
  check("getTripStats sums the trip", stats.totalPhotos === album.photoCount && stats.days > 0);
  const bad = await call("getPhotosByDate", { albumId: album.id, date: "yesterday" });
  check("a bad date is a coded BAD_REQUEST", bad.error?.code === "BAD_REQUEST");
  const other = await call("getTripStats", { albumId: "00000000-0000-0000-0000-000000000000" });
  check("a missing album is NOT_FOUND", other.error?.code === "NOT_FOUND");
} finally {
  await client.close();
}
process.exit(failed ? 1 : 0);
