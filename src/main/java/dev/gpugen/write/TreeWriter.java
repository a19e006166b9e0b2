package dev.gpugen.write;

import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.Failure;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.SafeRead;
import dev.gpugen.spec.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Puts a rendered tree on disk without losing anything, and without reaching outside the folder.
 *
 * <ul>
 *   <li>Every path, from the render or from the manifest on disk, is a plain relative path inside
 *       the folder with no symbolic link on the way ({@link Contained}).
 *   <li>Only files the previous manifest lists may be replaced or deleted, and only if nobody
 *       edited them since; a file gpugen did not write is never replaced without {@code --force}.
 *       Everything else in the folder (Terraform state, .terraform/, a user's notes) is never
 *       touched.
 *   <li>All or nothing: every check runs and every file is staged before the first rename. The
 *       manifest is then replaced by a journal naming old and new content of each file, files are
 *       moved into place (the old ones aside into staging), and the final manifest goes last. An
 *       I/O failure at any step moves everything back; a killed run leaves a folder that the next
 *       render, of either spec, recognises as its own.
 *   <li>One writer per folder ({@link Lock}); staging of other runs is removed only when abandoned
 *       ({@link Staging}).
 * </ul>
 */
public final class TreeWriter {
  private static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-r--r--");
  private static final Set<PosixFilePermission> EXEC_MODE =
      PosixFilePermissions.fromString("rwxr-xr-x");

  /** Above this, --check says that a file differs without printing it. */
  private static final long MAX_DIFF_BYTES = 16L << 20;

  private TreeWriter() {}

  /**
   * What a write did, for the one-line summary.
   *
   * @param previous the source the folder's manifest named before this write (for the change's
   *     impact), empty for a new folder or a manifest from before gpugen recorded it
   */
  public record Summary(
      int written, int unchanged, int deleted, Optional<Manifest.Source> previous) {}

  /** The steps that change the folder; tests fail each one in turn. */
  interface Ops {
    void move(Path from, Path to) throws IOException;

    void createDirectory(Path dir) throws IOException;

    Ops REAL =
        new Ops() {
          @Override
          public void move(Path from, Path to) throws IOException {
            try {
              Files.move(
                  from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
              throw new IOException(
                  "the file system of " + to.getParent() + " cannot rename files atomically", e);
            }
          }

          @Override
          public void createDirectory(Path dir) throws IOException {
            Files.createDirectory(dir);
          }
        };
  }

  public static Summary write(Path dir, RenderedTree tree, boolean force) throws Failure {
    return write(dir, tree, Optional.empty(), force, Ops.REAL);
  }

  /**
   * Writes {@code tree} into {@code dir} and records {@code source} in its manifest. A folder whose
   * manifest names another spec is refused (usage, exit 2) unless {@code force}.
   */
  public static Summary write(
      Path dir, RenderedTree tree, Optional<Manifest.Source> source, boolean force) throws Failure {
    return write(dir, tree, source, force, Ops.REAL);
  }

  static Summary write(Path dir, RenderedTree tree, boolean force, Ops ops) throws Failure {
    return write(dir, tree, Optional.empty(), force, ops);
  }

  @SuppressWarnings("try") // the lock is held for the block, never read
  static Summary write(
      Path dir, RenderedTree tree, Optional<Manifest.Source> source, boolean force, Ops ops)
      throws Failure {
    Path out = dir.toAbsolutePath().normalize();
    try {
      Contained.checkOutput(dir, out);
      Map<String, Path> targets = targets(out, tree.files().keySet());
      Path parent = out.getParent();
      Files.createDirectories(parent);
      try (Lock lock = Lock.acquire(out)) {
        Optional<Manifest> previous = previousManifest(out, force);
        if (source.isPresent() && previous.isPresent()) {
          checkOwner(dir, previous.get().source(), source.get(), force);
        }
        Map<String, Path> old =
            previous.isPresent() ? targets(out, previous.get().paths()) : Map.of();
        Plan plan = plan(out, tree, targets, previous, old, force);
        // Even when up to date: a killed run's staging copy would otherwise stay until the next
        // render that changes something.
        Staging.cleanAbandoned(parent);
        if (plan.changed().isEmpty() && plan.stale().isEmpty() && previous.isPresent()) {
          // Up to date, manifest included: nothing is written, not even the same bytes again (a
          // pre-commit render of every commit leaves the folder as it was).
          byte[] manifest = Manifest.of(contents(tree), source).toJson();
          if (Arrays.equals(manifest, readManifest(out.resolve(Manifest.FILE_NAME)))) {
            return new Summary(0, plan.unchanged(), 0, previous.get().source());
          }
        }
        Path staging = Staging.create(parent);
        try {
          return commit(out, staging, tree, previous, source, plan, ops);
        } finally {
          Staging.deleteTree(staging);
        }
      }
    } catch (IOException e) {
      throw new EnvironmentFailure("cannot write " + out + ": " + describe(e), e);
    }
  }

  /**
   * Records in {@code dir}'s manifest that its pending driver upgrade was rolled out ({@code gpugen
   * up} ran {@code upgrade-driver.yml}): the files and their hashes stay as they are. A manifest
   * without a pending upgrade is left alone.
   */
  @SuppressWarnings("try") // the lock is held for the block, never read
  public static void driverUpgradeDone(Path dir) throws Failure {
    Path out = dir.toAbsolutePath().normalize();
    try (Lock lock = Lock.acquire(out)) {
      Manifest m = Manifest.read(out);
      if (m.source().filter(Manifest.Source::driverUpgradePending).isEmpty()) {
        return;
      }
      Manifest next =
          new Manifest(
              m.files(), m.pending(), m.source().map(s -> s.withDriverUpgradePending(false)));
      Path staging = Staging.create(out.getParent());
      try {
        placeManifest(
            staging, out.resolve(Manifest.FILE_NAME), next.toJson(), Ops.REAL, new ArrayDeque<>());
      } finally {
        Staging.deleteTree(staging);
      }
    } catch (IOException e) {
      throw new EnvironmentFailure("cannot write " + out + ": " + describe(e), e);
    }
  }

  /**
   * The unified diff between what is on disk and {@code tree}, empty when up to date. Files the
   * manifest lists that the render no longer makes count as stale too. Reads only inside the
   * folder, never through a link.
   */
  public static String check(Path dir, RenderedTree tree) throws Failure {
    Path out = dir.toAbsolutePath().normalize();
    StringBuilder diff = new StringBuilder();
    try {
      Contained.checkOutput(dir, out);
      for (Map.Entry<String, Path> e : targets(out, tree.files().keySet()).entrySet()) {
        String rel = e.getKey();
        Path target = e.getValue();
        RenderedTree.File want = tree.files().get(rel);
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
          diff.append(UnifiedDiff.diff("/dev/null", "b/" + rel, List.of(), lines(want.content())));
          continue;
        }
        Optional<byte[]> have = readForDiff(target);
        if (have.isEmpty()) {
          diff.append("a/").append(rel).append(" differs (too large or not a file to show)\n");
          continue;
        }
        diff.append(
            UnifiedDiff.diff("a/" + rel, "b/" + rel, lines(have.get()), lines(want.content())));
        if (want.executable() && !Files.isExecutable(target)) {
          diff.append("mode of ").append(rel).append(" should be 0755\n");
        }
      }
      if (Files.exists(out.resolve(Manifest.FILE_NAME), LinkOption.NOFOLLOW_LINKS)) {
        Manifest m = Manifest.read(out);
        for (Map.Entry<String, Path> e : targets(out, m.paths()).entrySet()) {
          if (!tree.files().containsKey(e.getKey())
              && Files.exists(e.getValue(), LinkOption.NOFOLLOW_LINKS)) {
            Optional<byte[]> have = readForDiff(e.getValue());
            diff.append(
                have.isPresent()
                    ? UnifiedDiff.diff("a/" + e.getKey(), "/dev/null", lines(have.get()), List.of())
                    : "a/" + e.getKey() + " is stale (too large or not a file to show)\n");
          }
        }
      }
    } catch (IOException e) {
      throw new EnvironmentFailure("cannot read " + out + ": " + describe(e), e);
    }
    return diff.toString();
  }

  private static Optional<byte[]> readForDiff(Path target) throws IOException {
    try {
      return Optional.of(SafeRead.read(target, MAX_DIFF_BYTES, false));
    } catch (EnvironmentFailure e) {
      // Refused (a link, a pipe, too large): shown as stale without a diff.
      return Optional.empty();
    }
  }

  /** Every file's bytes, by path: what the manifest records. */
  private static Map<String, byte[]> contents(RenderedTree tree) {
    Map<String, byte[]> contents = new LinkedHashMap<>();
    tree.files().forEach((rel, f) -> contents.put(rel, f.content()));
    return contents;
  }

  /** Relative path → checked absolute path, in order. */
  private static Map<String, Path> targets(Path out, Iterable<String> paths) throws Failure {
    Map<String, Path> m = new LinkedHashMap<>();
    for (String rel : paths) {
      m.put(rel, Contained.resolve(out, rel));
    }
    return m;
  }

  /** What the commit will do, decided before anything changes. */
  private record Plan(List<String> changed, int unchanged, List<String> stale) {}

  /**
   * The outermost path from {@code dir} up to (not including) {@code out} that exists and is not a
   * folder, where a file would stand in a render's way; each folder is looked at once per write
   * ({@code seen}), not once per file under it.
   */
  private static Optional<Path> notFolder(Path out, Path dir, Map<Path, Optional<Path>> seen) {
    if (dir.equals(out)) {
      return Optional.empty();
    }
    Optional<Path> known = seen.get(dir);
    if (known != null) {
      return known;
    }
    Optional<Path> above = notFolder(out, dir.getParent(), seen);
    Optional<Path> found =
        above.isPresent()
            ? above
            : Files.exists(dir, LinkOption.NOFOLLOW_LINKS)
                    && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                ? Optional.of(dir)
                : Optional.empty();
    seen.put(dir, found);
    return found;
  }

  private static Plan plan(
      Path out,
      RenderedTree tree,
      Map<String, Path> targets,
      Optional<Manifest> previous,
      Map<String, Path> old,
      boolean force)
      throws IOException, Failure {
    List<String> changed = new ArrayList<>();
    List<String> edited = new ArrayList<>();
    List<String> foreign = new ArrayList<>();
    List<String> blocked = new ArrayList<>();
    int unchanged = 0;
    Map<Path, Optional<Path>> notFolders = new HashMap<>();
    for (Map.Entry<String, Path> e : targets.entrySet()) {
      String rel = e.getKey();
      Path target = e.getValue();
      RenderedTree.File want = tree.files().get(rel);
      Path notFolder = notFolder(out, target.getParent(), notFolders).orElse(null);
      if (notFolder != null) {
        blocked.add(
            out.relativize(notFolder) + " (a file where gpugen needs a folder for " + rel + ")");
        continue;
      }
      BasicFileAttributes a = attributes(target);
      if (a == null) {
        changed.add(rel);
        continue;
      }
      if (!a.isRegularFile()) {
        blocked.add(rel + " (" + (a.isDirectory() ? "a folder" : "not a regular file") + ")");
        continue;
      }
      boolean same = sameBytes(target, a.size(), want.content());
      if (same && Files.isExecutable(target) == want.executable()) {
        unchanged++;
        continue;
      }
      changed.add(rel);
      if (same) {
        continue; // only the mode differs: nothing to lose
      }
      String sha = sha256(target);
      if (previous.isPresent() && previous.get().paths().contains(rel)) {
        if (!previous.get().owns(rel, sha)) {
          edited.add(rel);
        }
      } else {
        foreign.add(rel);
      }
    }
    List<String> stale = new ArrayList<>();
    for (Map.Entry<String, Path> e : old.entrySet()) {
      String rel = e.getKey();
      if (tree.files().containsKey(rel)) {
        continue;
      }
      BasicFileAttributes a = attributes(e.getValue());
      if (a == null || !a.isRegularFile()) {
        continue; // gone, or replaced by a folder of the user's: not ours to delete
      }
      stale.add(rel);
      if (!previous.get().owns(rel, sha256(e.getValue()))) {
        edited.add(rel);
      }
    }
    if (!blocked.isEmpty()) {
      throw refused(
          "in the way of the render in "
              + out
              + ": "
              + String.join(", ", blocked)
              + "; move them away and render again",
          null);
    }
    if (!foreign.isEmpty() && !force) {
      throw refused(
          "files gpugen did not write are where the render puts its own: "
              + String.join(", ", foreign)
              + "; move them away (or into the spec or a template override, --templates), or"
              + " pass --force to overwrite",
          null);
    }
    if (!edited.isEmpty() && !force) {
      throw refused(
          "generated files were edited by hand since the last render: "
              + String.join(", ", edited)
              + "; move the change into the spec or a template override (--templates), or pass"
              + " --force to overwrite",
          null);
    }
    return new Plan(changed, unchanged, stale);
  }

  /** One reversible step that changed the folder, for the roll-back. */
  private record Done(Kind kind, Path target, Path backup) {}

  private enum Kind {
    CREATED_DIR,
    PLACED,
    MOVED_ASIDE,
    MANIFEST
  }

  private static Summary commit(
      Path out,
      Path staging,
      RenderedTree tree,
      Optional<Manifest> previous,
      Optional<Manifest.Source> source,
      Plan plan,
      Ops ops)
      throws IOException {
    Path files = Files.createDirectory(staging.resolve("new"));
    Path aside = Files.createDirectory(staging.resolve("old"));
    for (String rel : plan.changed()) {
      RenderedTree.File f = tree.files().get(rel);
      Path staged = files.resolve(rel);
      Files.createDirectories(staged.getParent());
      Files.write(staged, f.content());
      setMode(staged, f.executable() ? EXEC_MODE : FILE_MODE);
    }
    Manifest next = Manifest.of(contents(tree), source);
    Path manifestPath = out.resolve(Manifest.FILE_NAME);
    Optional<byte[]> oldManifest =
        Files.exists(manifestPath, LinkOption.NOFOLLOW_LINKS)
            ? Optional.of(readManifest(manifestPath))
            : Optional.empty();
    Deque<Done> done = new ArrayDeque<>();
    try {
      // Everything is staged and checked: only directory creations and renames from here on.
      createDirectories(out, out, ops, done);
      Manifest journal = previous.orElse(new Manifest(new TreeMap<>())).journal(next);
      placeManifest(staging, manifestPath, journal.toJson(), ops, done);
      for (String rel : plan.changed()) {
        Path target = out.resolve(rel);
        createDirectories(out, target.getParent(), ops, done);
        Path backup = null;
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
          backup = aside.resolve(rel);
          Files.createDirectories(backup.getParent());
          ops.move(target, backup);
          done.push(new Done(Kind.MOVED_ASIDE, target, backup));
        }
        ops.move(files.resolve(rel), target);
        done.push(new Done(Kind.PLACED, target, null));
      }
      for (String rel : plan.stale()) {
        Path target = out.resolve(rel);
        Path backup = aside.resolve(rel);
        Files.createDirectories(backup.getParent());
        ops.move(target, backup);
        done.push(new Done(Kind.MOVED_ASIDE, target, backup));
      }
      placeManifest(staging, manifestPath, next.toJson(), ops, done);
    } catch (IOException e) {
      rollBack(staging, manifestPath, oldManifest, done, e);
      throw e;
    }
    for (String rel : plan.stale()) {
      removeEmptyParents(out, out.resolve(rel).getParent());
    }
    return new Summary(
        plan.changed().size(),
        plan.unchanged(),
        plan.stale().size(),
        previous.flatMap(Manifest::source));
  }

  private static void placeManifest(
      Path staging, Path manifestPath, byte[] json, Ops ops, Deque<Done> done) throws IOException {
    Path staged = Files.createTempFile(staging, "manifest", ".json");
    Files.write(staged, json);
    setMode(staged, FILE_MODE);
    ops.move(staged, manifestPath);
    done.push(new Done(Kind.MANIFEST, manifestPath, null));
  }

  private static void createDirectories(Path out, Path dir, Ops ops, Deque<Done> done)
      throws IOException {
    Deque<Path> missing = new ArrayDeque<>();
    for (Path d = dir;
        (d.startsWith(out) || d.equals(out)) && !Files.exists(d, LinkOption.NOFOLLOW_LINKS);
        d = d.getParent()) {
      missing.push(d);
    }
    for (Path d : missing) {
      ops.createDirectory(d);
      done.push(new Done(Kind.CREATED_DIR, d, null));
    }
  }

  /** Undoes {@code done} newest first; what cannot be undone is named in the error. */
  private static void rollBack(
      Path staging,
      Path manifestPath,
      Optional<byte[]> oldManifest,
      Deque<Done> done,
      IOException cause) {
    boolean manifestTouched = false;
    for (Done d : done) {
      try {
        switch (d.kind()) {
          case PLACED -> Files.deleteIfExists(d.target());
          case MOVED_ASIDE -> Ops.REAL.move(d.backup(), d.target());
          case CREATED_DIR -> Files.deleteIfExists(d.target());
          case MANIFEST -> manifestTouched = true;
        }
      } catch (IOException e) {
        cause.addSuppressed(e);
      }
    }
    if (manifestTouched) {
      try {
        if (oldManifest.isPresent()) {
          Path staged = Files.createTempFile(staging, "manifest", ".json");
          Files.write(staged, oldManifest.get());
          setMode(staged, FILE_MODE);
          Ops.REAL.move(staged, manifestPath);
        } else {
          Files.deleteIfExists(manifestPath);
        }
      } catch (IOException e) {
        // The journal stays: it names old and new content, so the next render still owns both.
        cause.addSuppressed(e);
      }
    }
  }

  private static BasicFileAttributes attributes(Path p) throws IOException {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * Whether {@code file} (of {@code size} bytes) holds exactly {@code want}: compared byte for
   * byte, which costs less than hashing it, and read no further than one byte past {@code want}.
   */
  private static boolean sameBytes(Path file, long size, byte[] want) throws IOException {
    if (size != want.length) {
      return false;
    }
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      return Arrays.equals(in.readNBytes(want.length + 1), want);
    }
  }

  /** Streams: a 3 GiB file in the folder costs time, never memory. */
  private static String sha256(Path file) throws IOException {
    MessageDigest md = Sha256.digest();
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /** Whether {@code dir} holds a render: a manifest, reached without a symbolic link. */
  public static boolean rendered(Path dir) throws Failure {
    Path out = dir.toAbsolutePath().normalize();
    Contained.checkOutput(dir, out);
    return Files.isDirectory(out, LinkOption.NOFOLLOW_LINKS)
        && Files.exists(out.resolve(Manifest.FILE_NAME), LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * Refuses {@code dir} when its manifest says another spec (or environment) rendered it, unless
   * {@code force}: two specs with one {@code metadata.name} would otherwise share its files and its
   * Terraform state, and {@code gpugen down} of the second would destroy the first's cluster. A
   * folder without a manifest, or with one from before gpugen recorded its spec, passes.
   */
  public static void checkOwner(Path dir, Manifest.Source current, boolean force) throws Failure {
    if (rendered(dir)) {
      checkOwner(dir, Manifest.read(dir.toAbsolutePath().normalize()).source(), current, force);
    }
  }

  private static void checkOwner(
      Path dir, Optional<Manifest.Source> recorded, Manifest.Source current, boolean force) {
    if (force || recorded.isEmpty() || recorded.get().sameOwner(current)) {
      return;
    }
    String mine = recorded.get().shown(dir);
    String theirs = current.shown(dir);
    throw InvalidInput.usage(
        Printable.text(dir.toString())
            + " holds the render of "
            + mine
            + " (its "
            + Manifest.FILE_NAME
            + " says so), not of "
            + theirs
            + ": two specs in one folder share its files and its Terraform state. Give "
            + theirs
            + " its own metadata.name; if it replaces "
            + mine
            + " (renamed or moved), pass --force");
  }

  private static Optional<Manifest> previousManifest(Path out, boolean force)
      throws Failure, IOException {
    if (!Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    if (!Files.isDirectory(out, LinkOption.NOFOLLOW_LINKS)) {
      throw refused(out + " exists and is not a folder", null);
    }
    if (Files.exists(out.resolve(Manifest.FILE_NAME), LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of(Manifest.read(out));
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

  private static void removeEmptyParents(Path out, Path dir) throws IOException {
    for (Path d = dir; d != null && d.startsWith(out) && !d.equals(out); d = d.getParent()) {
      try {
        Files.delete(d);
      } catch (DirectoryNotEmptyException | NoSuchFileException e) {
        return;
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

  private static List<String> lines(byte[] bytes) {
    String s = new String(bytes, StandardCharsets.UTF_8);
    if (s.isEmpty()) {
      return List.of();
    }
    String t = s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    return Arrays.asList(t.split("\n", -1));
  }

  private static InvalidInput refused(String message, Throwable cause) {
    return new InvalidInput(Printable.text(message), cause);
  }

  /** A refused manifest fails the write like any I/O error: "cannot write OUT: ...". */
  private static byte[] readManifest(Path file) throws IOException {
    try {
      return SafeRead.read(file, Manifest.MAX_BYTES, false);
    } catch (EnvironmentFailure e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private static String describe(IOException e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof FileAlreadyExistsException) {
      m = "a file is in the way: " + m;
    }
    return Printable.text(m);
  }
}
