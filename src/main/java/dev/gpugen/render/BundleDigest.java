package dev.gpugen.render;

import dev.gpugen.failure.InternalFailure;
import dev.gpugen.spec.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The SHA-256 of the pull-mode bundle (the rendered {@code ansible/} folder as nodes fetch it): the
 * SHA-256 of its listing, one line per folder ({@code d PATH}) and per file ({@code f SHA256
 * PATH}), sorted by path in byte order, over every file the render writes there, dotfiles included,
 * and every folder that holds one. The user data carries it, and a node recomputes it over every
 * entry it fetched, before running anything: a file the render did not write (a fact cache, {@code
 * .cache/facts/localhost}, whose variables would outrank group_vars) or a folder it did not make
 * (an empty {@code group_vars/all/}, which Ansible reads instead of {@code group_vars/all.yml})
 * changes the digest, and the node runs nothing. Paths are of {@link #NAME} only, which the node
 * checks on the NUL-separated names it finds before it lists them, so no name can split a line.
 */
public final class BundleDigest {
  /** The folder of the render that is the bundle. */
  public static final String FOLDER = "ansible/";

  /** The characters a bundle path may have; the user data refuses any other. */
  static final Pattern NAME = Pattern.compile("[A-Za-z0-9._/-]+");

  private BundleDigest() {}

  static String of(Map<String, RenderedTree.File> rendered) throws InternalFailure {
    // TreeMap's String order is byte order for these ASCII paths (the node's LC_ALL=C sort -z).
    Map<String, String> lines = new TreeMap<>();
    for (Map.Entry<String, RenderedTree.File> e : rendered.entrySet()) {
      if (!e.getKey().startsWith(FOLDER)) {
        continue;
      }
      String path = e.getKey().substring(FOLDER.length());
      if (!NAME.matcher(path).matches()) {
        throw new InternalFailure(
            "render failed: the pull bundle path "
                + path
                + " has a character outside [A-Za-z0-9._/-], which nodes refuse",
            null);
      }
      lines.put(path, "f " + Sha256.hex(e.getValue().content()) + " " + path);
      for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
        String folder = path.substring(0, slash);
        lines.put(folder, "d " + folder);
      }
    }
    StringBuilder listing = new StringBuilder();
    lines.values().forEach(line -> listing.append(line).append('\n'));
    return Sha256.hex(listing.toString().getBytes(StandardCharsets.UTF_8));
  }
}
