package dev.gpugen.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.failure.Failure;
import dev.gpugen.render.RenderedTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreeWriterTest {
  @TempDir Path tmp;

  static RenderedTree tree(String... pathsAndContents) {
    Map<String, RenderedTree.File> m = new TreeMap<>();
    for (int i = 0; i < pathsAndContents.length; i += 2) {
      String text = pathsAndContents[i + 1];
      m.put(
          pathsAndContents[i],
          new RenderedTree.File(text.getBytes(StandardCharsets.UTF_8), text.startsWith("#!")));
    }
    return RenderedTree.of(m);
  }

  @Test
  void writesFilesManifestAndModes() throws Exception {
    Path out = tmp.resolve("out");
    TreeWriter.Summary s =
        TreeWriter.write(out, tree("a/b.yml", "x: 1\n", "run.sh", "#!/bin/sh\necho\n"), false);
    assertEquals(new TreeWriter.Summary(2, 0, 0, Optional.empty()), s);
    assertEquals("x: 1\n", Files.readString(out.resolve("a/b.yml")));
    assertEquals(
        "rwxr-xr-x",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("run.sh"))));
    assertEquals(
        "rw-r--r--",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("a/b.yml"))));
    Manifest m = Manifest.read(out);
    assertEquals(2, m.files().size());
    assertEquals(
        Manifest.sha256("x: 1\n".getBytes(StandardCharsets.UTF_8)), m.files().get("a/b.yml"));
    try (Stream<Path> s2 = Files.list(tmp)) {
      assertEquals(1, s2.count(), "no staging folder is left beside the output");
    }
  }

  @Test
  void rerenderIsANoOpAndByteStable() throws Exception {
    Path out = tmp.resolve("out");
    RenderedTree t = tree("a.yml", "x: 1\n");
    TreeWriter.write(out, t, false);
    byte[] manifest = Files.readAllBytes(out.resolve(Manifest.FILE_NAME));
    assertEquals(
        new TreeWriter.Summary(0, 1, 0, Optional.empty()), TreeWriter.write(out, t, false));
    assertArrayEquals(manifest, Files.readAllBytes(out.resolve(Manifest.FILE_NAME)));
    assertEquals("", TreeWriter.check(out, t));
  }

  /** Ops that fail the test if the writer changes anything: an up-to-date write must not. */
  private static final TreeWriter.Ops NOTHING =
      new TreeWriter.Ops() {
        @Override
        public void move(Path from, Path to) {
          throw new AssertionError("moved " + from + " to " + to);
        }

        @Override
        public void createDirectory(Path dir) {
          throw new AssertionError("created " + dir);
        }
      };

  @Test
  void anUpToDateWriteTouchesNothingNotEvenTheManifestOrAStagingFolder() throws Exception {
    Path out = tmp.resolve("out");
    RenderedTree t = tree("a/b.yml", "x: 1\n", "run.sh", "#!/bin/sh\n");
    Optional<Manifest.Source> source =
        Optional.of(new Manifest.Source("cluster.yaml", Optional.empty(), new TreeMap<>()));
    TreeWriter.write(out, t, source, false);
    Path manifest = out.resolve(Manifest.FILE_NAME);
    FileTime old = FileTime.from(Instant.now().minusSeconds(3600));
    Files.setLastModifiedTime(manifest, old);
    Object inode = Files.readAttributes(manifest, BasicFileAttributes.class).fileKey();

    assertEquals(
        new TreeWriter.Summary(0, 2, 0, source), TreeWriter.write(out, t, source, false, NOTHING));
    assertEquals(old, Files.getLastModifiedTime(manifest));
    assertEquals(inode, Files.readAttributes(manifest, BasicFileAttributes.class).fileKey());
    try (Stream<Path> s = Files.list(tmp)) {
      assertEquals(List.of(out), s.toList(), "no staging folder beside the output");
    }
  }

  @Test
  void aWriteWhoseFilesAreUpToDateStillRecordsAChangedSourceInTheManifest() throws Exception {
    Path out = tmp.resolve("out");
    RenderedTree t = tree("a.yml", "x: 1\n");
    TreeWriter.write(
        out,
        t,
        Optional.of(new Manifest.Source("a.yaml", Optional.empty(), new TreeMap<>())),
        false);
    Optional<Manifest.Source> moved =
        Optional.of(new Manifest.Source("b.yaml", Optional.empty(), new TreeMap<>()));
    assertThrows(AssertionError.class, () -> TreeWriter.write(out, t, moved, true, NOTHING));
    TreeWriter.write(out, t, moved, true);
    assertEquals(moved, Manifest.read(out).source());
  }

  @Test
  void deletesOnlyStaleFilesItWroteAndKeepsUserFiles() throws Exception {
    Path out = tmp.resolve("out");
    TreeWriter.write(out, tree("keep.tf", "a\n", "old/gone.tf", "b\n"), false);
    Files.writeString(out.resolve("terraform.tfstate"), "{}");
    Files.createDirectories(out.resolve(".terraform/providers"));
    Files.writeString(out.resolve(".terraform/providers/p"), "bin");
    Files.writeString(out.resolve("old/notes.md"), "mine");
    TreeWriter.Summary s = TreeWriter.write(out, tree("keep.tf", "a2\n"), false);
    assertEquals(new TreeWriter.Summary(1, 0, 1, Optional.empty()), s);
    assertFalse(Files.exists(out.resolve("old/gone.tf")));
    assertEquals("mine", Files.readString(out.resolve("old/notes.md")), "user file kept");
    assertEquals("{}", Files.readString(out.resolve("terraform.tfstate")));
    assertEquals("bin", Files.readString(out.resolve(".terraform/providers/p")));
  }

  @Test
  void removesFoldersThatStaleDeletionEmptied() throws Exception {
    Path out = tmp.resolve("out");
    TreeWriter.write(out, tree("keep.tf", "a\n", "x/y/gone.tf", "b\n"), false);
    TreeWriter.write(out, tree("keep.tf", "a\n"), false);
    assertFalse(Files.exists(out.resolve("x")));
  }

  @Test
  void refusesAFolderItDidNotWriteUnlessForced() throws Exception {
    Path out = Files.createDirectories(tmp.resolve("out"));
    Files.writeString(out.resolve("precious.txt"), "data");
    Failure e =
        assertThrows(Failure.class, () -> TreeWriter.write(out, tree("a.yml", "x\n"), false));
    assertEquals(Failure.Kind.INVALID_INPUT, e.kind());
    assertTrue(e.getMessage().contains("--force"), e.getMessage());
    assertFalse(Files.exists(out.resolve("a.yml")));
    TreeWriter.write(out, tree("a.yml", "x\n"), true);
    assertEquals("data", Files.readString(out.resolve("precious.txt")));
    assertTrue(Files.exists(out.resolve("a.yml")));
  }

  @Test
  void refusesToOverwriteHandEditsUnlessForced() throws Exception {
    Path out = tmp.resolve("out");
    TreeWriter.write(out, tree("a.yml", "x: 1\n", "b.yml", "y\n"), false);
    Files.writeString(out.resolve("a.yml"), "x: 2 # tuned by hand\n");
    Failure e =
        assertThrows(
            Failure.class,
            () -> TreeWriter.write(out, tree("a.yml", "x: 3\n", "b.yml", "z\n"), false));
    assertTrue(e.getMessage().contains("a.yml"), e.getMessage());
    assertEquals("x: 2 # tuned by hand\n", Files.readString(out.resolve("a.yml")), "nothing lost");
    assertEquals("y\n", Files.readString(out.resolve("b.yml")), "nothing half-written");
    TreeWriter.write(out, tree("a.yml", "x: 3\n", "b.yml", "z\n"), true);
    assertEquals("x: 3\n", Files.readString(out.resolve("a.yml")));
  }

  @Test
  void refusesSymlinkedOutputAndLinksInside() throws Exception {
    Path real = Files.createDirectories(tmp.resolve("real"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
    assertEquals(
        Failure.Kind.INVALID_INPUT,
        assertThrows(Failure.class, () -> TreeWriter.write(link, tree("a", "x\n"), true)).kind());
    Path out = tmp.resolve("out");
    TreeWriter.write(out, tree("a", "x\n"), false);
    Files.createSymbolicLink(out.resolve("etc"), real);
    assertThrows(
        Failure.class, () -> TreeWriter.write(out, tree("a", "x\n", "etc/passwd", "p\n"), false));
    assertFalse(Files.exists(real.resolve("passwd")));
  }

  @Test
  void refusesPathsThatEscapeTheFolder() {
    Path out = tmp.resolve("out");
    Failure e =
        assertThrows(Failure.class, () -> TreeWriter.write(out, tree("../evil", "x\n"), true));
    assertTrue(e.getMessage().contains("escapes"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("evil")));
  }

  @Test
  void checkReportsChangedMissingAndStaleFiles() throws Exception {
    Path out = tmp.resolve("out");
    TreeWriter.write(out, tree("a.yml", "x: 1\n", "stale.yml", "s\n"), false);
    String diff = TreeWriter.check(out, tree("a.yml", "x: 2\n", "new.yml", "n\n"));
    assertTrue(diff.contains("--- a/a.yml\n+++ b/a.yml\n@@ -1 +1 @@\n-x: 1\n+x: 2\n"), diff);
    assertTrue(diff.contains("--- /dev/null\n+++ b/new.yml"), diff);
    assertTrue(diff.contains("--- a/stale.yml\n+++ /dev/null"), diff);
  }

  @Test
  void cleansOnlyAbandonedStaging() throws Exception {
    // A staging folder whose owner process is dead, one without an owner an hour old, and one a
    // live process (this one) is still filling.
    Process done = new ProcessBuilder("true").start();
    done.waitFor();
    Path dead = Files.createDirectories(tmp.resolve(Staging.PREFIX + "dead/x"));
    Files.writeString(
        dead.resolveSibling(Staging.OWNER),
        done.pid() + " 1 " + ownerHost(),
        StandardCharsets.UTF_8);
    Path old = Files.createDirectories(tmp.resolve(Staging.PREFIX + "old"));
    Files.setLastModifiedTime(
        old, FileTime.from(Instant.now().minus(Staging.MAX_AGE).minusSeconds(60)));
    Path live = Staging.create(tmp);
    TreeWriter.write(tmp.resolve("out"), tree("a", "x\n"), false);
    assertFalse(Files.exists(dead.getParent()), "owner is dead");
    assertFalse(Files.exists(old), "older than the bound");
    assertTrue(Files.exists(live), "a live run's staging is kept");
  }

  /** An up-to-date write changes nothing in its folder, yet still clears a dead run's staging. */
  @Test
  void anUpToDateWriteStillCleansAbandonedStaging() throws Exception {
    Path out = tmp.resolve("out");
    RenderedTree t = tree("a", "x\n");
    TreeWriter.write(out, t, false);
    Path old = Files.createDirectories(tmp.resolve(Staging.PREFIX + "old"));
    Files.setLastModifiedTime(
        old, FileTime.from(Instant.now().minus(Staging.MAX_AGE).minusSeconds(60)));
    assertEquals(
        new TreeWriter.Summary(0, 1, 0, Optional.empty()),
        TreeWriter.write(out, t, false, NOTHING));
    assertFalse(Files.exists(old), "older than the bound");
  }

  @Test
  void aLiveProcessIsKnownByItsStartInClockTicksNotByTheBootTimeOfEachJvm() throws Exception {
    long self = ProcessHandle.current().pid();
    String host = ownerHost();
    Optional<String> started = Staging.started(self);
    assertTrue(started.isPresent(), "the start of a live process is readable");
    // On Linux: ticks since boot from /proc, the same in every JVM whatever btime it read.
    assertTrue(started.get().matches("t[0-9]+"), started.get());
    assertEquals(started, Staging.started(self), "stable across reads");
    Path live = Files.createDirectories(tmp.resolve(Staging.PREFIX + "live"));
    Files.writeString(live.resolve(Staging.OWNER), self + " " + started.get() + " " + host);
    assertFalse(Staging.abandoned(live), "its process runs");
    Path reused = Files.createDirectories(tmp.resolve(Staging.PREFIX + "reused"));
    Files.writeString(reused.resolve(Staging.OWNER), self + " t1 " + host);
    assertTrue(Staging.abandoned(reused), "the pid now names a process started later");
    // A start read another way (the instant, off Linux) or not at all is no proof of reuse.
    for (String other : new String[] {"0", "s1", ""}) {
      Path unsure = Files.createDirectories(tmp.resolve(Staging.PREFIX + "unsure" + other));
      Files.writeString(unsure.resolve(Staging.OWNER), self + " " + other + " " + host);
      assertFalse(Staging.abandoned(unsure), "start " + other);
    }
  }

  private String ownerHost() throws IOException {
    Path probe = Staging.create(tmp.resolve("probe-parent-" + System.nanoTime()).getParent());
    String[] owner = Files.readString(probe.resolve(Staging.OWNER)).trim().split(" ");
    Staging.deleteTree(probe);
    return owner[2];
  }
}
