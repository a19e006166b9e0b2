package dev.gpugen.render;

import dev.gpugen.spec.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SHA-256 of the pull-mode bundle (the rendered {@code ansible/} folder as nodes fetch it): the
 * SHA-256 of its {@code sha256sum} listing, one {@code <sha256> <path>} line per file, sorted by
 * path in byte order, over every file the render writes there, dotfiles included. The user data
 * carries it, and a node recomputes it over every file it fetched, before running anything: a file
 * the render did not write (a fact cache, {@code .cache/facts/localhost}, whose variables would
 * outrank group_vars) changes the digest, and the node runs nothing.
 */
public final class BundleDigest {
  /** The folder of the render that is the bundle. */
  public static final String FOLDER = "ansible/";

  private BundleDigest() {}

  static String of(Map<String, RenderedTree.File> rendered) {
    Map<String, String> lines = new TreeMap<>();
    rendered.forEach(
        (path, file) -> {
          if (path.startsWith(FOLDER)) {
            lines.put(path.substring(FOLDER.length()), Sha256.hex(file.content()));
          }
        });
    StringBuilder listing = new StringBuilder();
    // TreeMap's String order is byte order for the ASCII paths gpugen writes (LC_ALL=C sort).
    lines.forEach((path, sha) -> listing.append(sha).append("  ").append(path).append('\n'));
    return Sha256.hex(listing.toString().getBytes(StandardCharsets.UTF_8));
  }
}
