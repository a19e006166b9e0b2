package dev.gpugen.write;

import dev.gpugen.render.RenderedTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Puts a rendered tree on disk without losing anything: files are staged beside the target and
 * moved into place one atomic rename each; only files the previous manifest lists may be replaced
 * or deleted, and only if nobody edited them since; everything else in the folder (Terraform state,
 * .terraform/, lock files, a user's notes) is never touched.
 */
public final class TreeWriter {
  private static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-r--r--");
  private static final Set<PosixFilePermission> EXEC_MODE =
      PosixFilePermissions.fromString("rwxr-xr-x");
  private static final String STAGING_PREFIX = ".gpugen-staging-";

  private TreeWriter() {}

  /** What a write did, for the one-line summary. */
  public record Summary(int written, int unchanged, int deleted) {}

  public static Summary write(Path dir, RenderedTree tree, boolean force) throws WriteException {
    Path out = dir.toAbsolutePath().normalize();
    try {
      checkPaths(out, tree);
      Optional<Manifest> previous = previousManifest(out, force);
      checkHandEdits(out, tree, previous, force);
      Path parent = out.getParent();
      Files.createDirectories(parent);
      cleanStaleStaging(parent);
      Path staging = Files.createTempDirectory(parent, STAGING_PREFIX);
      try {
        return commit(out, staging, tree, previous);
      } finally {
        deleteTree(staging);
      }
    } catch (IOException e) {
      throw new WriteException("cannot write " + out + ": " + describe(e), false, e);
    }
  }

  /**
   * The unified diff between what is on disk and {@code tree}, empty when up to date. Files the
   * manifest lists that the render no longer makes count as stale too.
   */
  public static String check(Path dir, RenderedTree tree) throws WriteException {
    Path out = dir.toAbsolutePath().normalize();
    StringBuilder diff = new StringBuilder();
    try {
      checkPaths(out, tree);
      for (Map.Entry<String, RenderedTree.File> e : tree.files().entrySet()) {
        Path target = out.resolve(e.getKey());
        String want = new String(e.getValue().content(), StandardCharsets.UTF_8);
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
          diff.append(UnifiedDiff.diff("/dev/null", "b/" + e.getKey(), List.of(), lines(want)));
          continue;
        }
        String have = Files.readString(target, StandardCharsets.UTF_8);
        diff.append(
            UnifiedDiff.diff("a/" + e.getKey(), "b/" + e.getKey(), lines(have), lines(want)));
        if (e.getValue().executable() && !Files.isExecutable(target)) {
          diff.append("mode of ").append(e.getKey()).append(" should be 0755\n");
        }
      }
      if (Files.isRegularFile(out.resolve(Manifest.FILE_NAME))) {
        for (String old : Manifest.read(out).files().keySet()) {
          Path target = out.resolve(old);
          if (!tree.files().containsKey(old) && Files.exists(target)) {
            diff.append(
                UnifiedDiff.diff(
                    "a/" + old,
                    "/dev/null",
                    lines(Files.readString(target, StandardCharsets.UTF_8)),
                    List.of()));
          }
        }
      }
    } catch (IOException e) {
      throw new WriteException("cannot read " + out + ": " + describe(e), false, e);
    }
    return diff.toString();
  }

  private static Summary commit(
      Path out, Path staging, RenderedTree tree, Optional<Manifest> previous) throws IOException {
    Map<String, byte[]> contents = new LinkedHashMap<>();
    List<String> changed = new ArrayList<>();
    int unchanged = 0;
    for (Map.Entry<String, RenderedTree.File> e : tree.files().entrySet()) {
      byte[] bytes = e.getValue().content();
      contents.put(e.getKey(), bytes);
      Path target = out.resolve(e.getKey());
      if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
          && Arrays.equals(Files.readAllBytes(target), bytes)
          && Files.isExecutable(target) == e.getValue().executable()) {
        unchanged++;
        continue;
      }
      Path staged = staging.resolve(e.getKey());
      Files.createDirectories(staged.getParent());
      Files.write(staged, bytes);
      setMode(staged, e.getValue().executable() ? EXEC_MODE : FILE_MODE);
      changed.add(e.getKey());
    }
    // Everything is staged: only renames from here on, each atomic.
    for (String path : changed) {
      Path target = out.resolve(path);
      Files.createDirectories(target.getParent());
      move(staging.resolve(path), target);
    }
    int deleted = 0;
    if (previous.isPresent()) {
      for (String old : previous.get().files().keySet()) {
        if (!tree.files().containsKey(old)) {
          Path target = out.resolve(old);
          if (Files.deleteIfExists(target)) {
            deleted++;
          }
          removeEmptyParents(out, target.getParent());
        }
      }
    }
    Path manifest = staging.resolve(Manifest.FILE_NAME);
    Files.write(manifest, Manifest.of(contents).toJson());
    setMode(manifest, FILE_MODE);
    move(manifest, out.resolve(Manifest.FILE_NAME));
    return new Summary(changed.size(), unchanged, deleted);
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException(
          "the file system of " + to.getParent() + " cannot rename files atomically", e);
    }
  }

  /** Refuses symlinks on the way and any output path that would escape the folder. */
  private static void checkPaths(Path out, RenderedTree tree) throws WriteException, IOException {
    for (Path p = out; p != null; p = p.getParent()) {
      if (p.equals(out) && Files.isSymbolicLink(p)) {
        throw refused(out + " is a symbolic link; gpugen writes only into real folders", null);
      }
    }
    for (String rel : tree.files().keySet()) {
      Path target = out.resolve(rel).normalize();
      if (!target.startsWith(out) || rel.contains("\\") || rel.startsWith("/")) {
        throw refused("output path " + rel + " escapes " + out, null);
      }
      for (Path p = target; !p.equals(out); p = p.getParent()) {
        if (Files.isSymbolicLink(p)) {
          throw refused(p + " is a symbolic link; gpugen does not write through links", null);
        }
      }
    }
  }

  private static Optional<Manifest> previousManifest(Path out, boolean force)
      throws WriteException, IOException {
    if (!Files.exists(out)) {
      return Optional.empty();
    }
    if (!Files.isDirectory(out, LinkOption.NOFOLLOW_LINKS)) {
      throw refused(out + " exists and is not a folder", null);
    }
    if (Files.isRegularFile(out.resolve(Manifest.FILE_NAME))) {
      try {
        return Optional.of(Manifest.read(out));
      } catch (IOException e) {
        if (force) {
          return Optional.empty();
        }
        throw refused(e.getMessage(), e);
      }
    }
    try (Stream<Path> s = Files.list(out)) {
      if (s.findAny().isPresent() && !force) {
        throw refused(
            out
                + " is not empty and was not written by gpugen (no "
                + Manifest.FILE_NAME
                + "); choose another -o folder, or pass --force to write into it",
            null);
      }
    }
    return Optional.empty();
  }

  private static void checkHandEdits(
      Path out, RenderedTree tree, Optional<Manifest> previous, boolean force)
      throws WriteException, IOException {
    if (previous.isEmpty() || force) {
      return;
    }
    List<String> edited = new ArrayList<>();
    for (Map.Entry<String, String> e : previous.get().files().entrySet()) {
      Path target = out.resolve(e.getKey());
      if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
          && !Manifest.sha256(Files.readAllBytes(target)).equals(e.getValue())) {
        byte[] wanted =
            tree.files().containsKey(e.getKey()) ? tree.files().get(e.getKey()).content() : null;
        // An edit that already matches the new render loses nothing.
        if (wanted == null || !Arrays.equals(wanted, Files.readAllBytes(target))) {
          edited.add(e.getKey());
        }
      }
    }
    if (!edited.isEmpty()) {
      throw refused(
          "generated files were edited by hand since the last render: "
              + String.join(", ", edited)
              + "; move the change into the spec or a template override (--templates), or pass"
              + " --force to overwrite",
          null);
    }
  }

  private static void cleanStaleStaging(Path parent) throws IOException {
    try (Stream<Path> s = Files.list(parent)) {
      for (Path p : s.filter(p -> p.getFileName().toString().startsWith(STAGING_PREFIX)).toList()) {
        deleteTree(p);
      }
    }
  }

  private static void removeEmptyParents(Path out, Path dir) throws IOException {
    for (Path d = dir; d != null && d.startsWith(out) && !d.equals(out); d = d.getParent()) {
      try {
        Files.delete(d);
      } catch (DirectoryNotEmptyException e) {
        return;
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static void setMode(Path p, Set<PosixFilePermission> mode) throws IOException {
    try {
      Files.setPosixFilePermissions(p, mode);
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system (Windows): modes do not exist there.
    }
  }

  private static List<String> lines(String s) {
    if (s.isEmpty()) {
      return List.of();
    }
    String t = s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    return Arrays.asList(t.split("\n", -1));
  }

  private static WriteException refused(String message, Throwable cause) {
    return new WriteException(message, true, cause);
  }

  private static String describe(IOException e) {
    if (e instanceof FileAlreadyExistsException) {
      return "a file is in the way: " + e.getMessage();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
