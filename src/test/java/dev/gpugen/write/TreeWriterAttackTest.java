package dev.gpugen.write;

import static dev.gpugen.write.TreeWriterTest.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpugen.failure.Failure;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.spec.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The writer under attack: tampered manifests, planted links, files in the way, concurrent runs and
 * a failure at every step. Each test hashes a sibling tree (the "victim") before and after: nothing
 * outside the output folder may be read into output, replaced or deleted.
 */
class TreeWriterAttackTest {
  @TempDir Path tmp;
  Path out;
  Path victim;
  String victimBefore;

  @BeforeEach
  void setUp() throws IOException {
    out = tmp.resolve("out");
    victim = Files.createDirectories(tmp.resolve("victim"));
    Files.writeString(victim.resolve("precious.txt"), "SECRET-TOKEN=precious\n");
    Files.createDirectories(victim.resolve("old"));
    Files.writeString(victim.resolve("old/gone.tf"), "b\n");
    victimBefore = hashTree(victim);
  }

  /** Path → type and sha256 of every entry under {@code root}, links not followed. */
  static String hashTree(Path root) throws IOException {
    SortedMap<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.toList()) {
        String rel = root.relativize(p).toString();
        if (Files.isSymbolicLink(p)) {
          m.put(rel, "link " + Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          m.put(rel, "dir");
        } else {
          m.put(rel, Sha256.hex(Files.readAllBytes(p)) + (Files.isExecutable(p) ? " x" : ""));
        }
      }
    }
    return m.toString();
  }

  private void assertVictimUntouched() throws IOException {
    assertEquals(victimBefore, hashTree(victim), "nothing outside the output folder changed");
  }

  /** Adds {@code entry} with the sha256 of what it points to, as an attacker would. */
  private void tamper(String entry, String sha) throws IOException {
    Path m = out.resolve(Manifest.FILE_NAME);
    String json = Files.readString(m);
    Files.writeString(
        m,
        json.replaceFirst(
            "\"files\": \\{",
            Matcher.quoteReplacement("\"files\": {\n    \"" + entry + "\": \"" + sha + "\",")));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "../victim/precious.txt",
        "ABS/victim/precious.txt",
        "/proc/self/environ",
        "a/../../victim/precious.txt",
        "./a.yml",
        "a//b",
        "..\\\\..\\\\victim",
        "~/.ssh/id_rsa"
      })
  void aTamperedManifestEntryIsRefusedWithItsPosition(String entry) throws Exception {
    String e = entry.replace("ABS", tmp.toString());
    TreeWriter.write(out, tree("a.yml", "x: 1\n"), false);
    tamper(e, Sha256.hex(Files.readAllBytes(victim.resolve("precious.txt"))));
    String outBefore = hashTree(out);
    for (boolean force : new boolean[] {false, true}) {
      // The render drops a.yml: a stale-file deletion would follow the tampered entry.
      Failure x =
          assertThrows(
              Failure.class,
              () -> TreeWriter.write(out, tree("b.yml", "y\n"), force),
              "force=" + force);
      assertEquals(Failure.Kind.INVALID_INPUT, x.kind(), x.getMessage());
      assertTrue(
          x.getMessage().startsWith(out.resolve(Manifest.FILE_NAME) + ":3:5: entry "),
          x.getMessage());
      assertFalse(x.getMessage().contains("\n"), "one line: " + x.getMessage());
    }
    Failure c = assertThrows(Failure.class, () -> TreeWriter.check(out, tree("b.yml", "y\n")));
    assertFalse(c.getMessage().contains("SECRET-TOKEN"), c.getMessage());
    assertEquals(outBefore, hashTree(out), "the folder is unchanged too");
    assertVictimUntouched();
  }

  @Test
  void aLinkPlantedInsideTheFolderIsNeverFollowed() throws Exception {
    TreeWriter.write(out, tree("keep.tf", "a\n", "old/gone.tf", "b\n"), false);
    // Replace the generated folder old/ by a link to the victim's: deleting the stale
    // old/gone.tf would delete victim/old/gone.tf.
    Files.delete(out.resolve("old/gone.tf"));
    Files.delete(out.resolve("old"));
    Files.createSymbolicLink(out.resolve("old"), victim.resolve("old"));
    Failure x =
        assertThrows(Failure.class, () -> TreeWriter.write(out, tree("keep.tf", "a\n"), true));
    assertTrue(x.getMessage().contains("is a symbolic link"), x.getMessage());
    assertThrows(Failure.class, () -> TreeWriter.check(out, tree("keep.tf", "a\n")));
    // A generated file replaced by a link: --check must not print what it points to.
    Files.delete(out.resolve("old"));
    Files.delete(out.resolve("keep.tf"));
    Files.createSymbolicLink(out.resolve("keep.tf"), victim.resolve("precious.txt"));
    Failure c = assertThrows(Failure.class, () -> TreeWriter.check(out, tree("keep.tf", "a\n")));
    assertFalse(c.getMessage().contains("SECRET"), c.getMessage());
    assertThrows(Failure.class, () -> TreeWriter.write(out, tree("keep.tf", "z\n"), true));
    assertVictimUntouched();
  }

  @Test
  void aManifestThatIsALinkIsNotRead() throws Exception {
    TreeWriter.write(out, tree("a.yml", "x\n"), false);
    Files.delete(out.resolve(Manifest.FILE_NAME));
    Files.createSymbolicLink(out.resolve(Manifest.FILE_NAME), victim.resolve("precious.txt"));
    Failure x = assertThrows(Failure.class, () -> TreeWriter.check(out, tree("a.yml", "y\n")));
    assertFalse(x.getMessage().contains("SECRET"), x.getMessage());
    assertTrue(x.getMessage().contains("symbolic link"), x.getMessage());
    assertThrows(Failure.class, () -> TreeWriter.write(out, tree("a.yml", "y\n"), true));
    assertVictimUntouched();
  }

  @Test
  void aHugeManifestIsOneLineNotAnOutOfMemoryError() throws Exception {
    TreeWriter.write(out, tree("a.yml", "x\n"), false);
    try (var ch =
        java.nio.channels.FileChannel.open(
            out.resolve(Manifest.FILE_NAME), java.nio.file.StandardOpenOption.WRITE)) {
      ch.position(3L << 30).write(java.nio.ByteBuffer.wrap(new byte[] {'}'})); // sparse 3 GiB
    }
    Failure x =
        assertThrows(Failure.class, () -> TreeWriter.write(out, tree("a.yml", "y\n"), true));
    assertEquals(Failure.Kind.ENVIRONMENT, x.kind(), "an I/O limit: exit 3");
    assertTrue(x.getMessage().contains("3.0 GiB, more than the 16 MiB"), x.getMessage());
  }

  @Test
  void aLinkAnywhereOnTheWayToTheOutputIsRefused() throws Exception {
    Path real = Files.createDirectories(tmp.resolve("real"));
    Path linkdir = Files.createSymbolicLink(tmp.resolve("linkdir"), real);
    String realBefore = hashTree(real);
    Failure x =
        assertThrows(
            Failure.class, () -> TreeWriter.write(linkdir.resolve("sub"), tree("a", "x\n"), true));
    assertTrue(
        x.getMessage().startsWith(linkdir + " is a symbolic link on the way"), x.getMessage());
    assertThrows(
        Failure.class, () -> TreeWriter.check(linkdir.resolve("sub/deeper"), tree("a", "x\n")));
    assertEquals(realBefore, hashTree(real));
  }

  @Test
  void aNewGeneratedPathNeverOverwritesAUsersFile() throws Exception {
    // Render, write your own terraform/pull.tf, switch the spec so it generates pull.tf, render.
    TreeWriter.write(out, tree("terraform/main.tf", "m\n"), false);
    Files.writeString(out.resolve("terraform/pull.tf"), "# mine\n");
    RenderedTree pull = tree("terraform/main.tf", "m\n", "terraform/pull.tf", "generated\n");
    String before = hashTree(out);
    Failure x = assertThrows(Failure.class, () -> TreeWriter.write(out, pull, false));
    assertEquals(Failure.Kind.INVALID_INPUT, x.kind());
    assertEquals(
        "files gpugen did not write are where the render puts its own: terraform/pull.tf; move"
            + " them away (or into the spec or a template override, --templates), or pass --force"
            + " to overwrite",
        x.getMessage());
    assertEquals(before, hashTree(out), "nothing changed");
    TreeWriter.write(out, pull, true);
    assertEquals("generated\n", Files.readString(out.resolve("terraform/pull.tf")));
    assertVictimUntouched();
  }

  @Test
  void aFileWhereAFolderMustGoIsRefusedBeforeAnythingChanges() throws Exception {
    List<String> files = new ArrayList<>();
    for (int i = 0; i < 42; i++) {
      files.add("ansible/f" + i + ".yml");
      files.add("v1\n");
    }
    TreeWriter.write(out, tree(files.toArray(String[]::new)), false);
    Files.writeString(out.resolve("argocd"), "a user's file\n");
    List<String> next = new ArrayList<>();
    for (int i = 0; i < files.size(); i += 2) {
      next.add(files.get(i));
      next.add("v2\n");
    }
    next.add("argocd/root.yaml");
    next.add("r\n");
    String before = hashTree(out);
    Failure x =
        assertThrows(
            Failure.class, () -> TreeWriter.write(out, tree(next.toArray(String[]::new)), true));
    assertTrue(
        x.getMessage().contains("argocd (a file where gpugen needs a folder"), x.getMessage());
    assertEquals(before, hashTree(out), "not one of the 42 files was replaced");
    // Going back to the old spec is not a "hand edit".
    TreeWriter.write(out, tree(files.toArray(String[]::new)), false);
  }

  /** Counts the steps of a write and fails the one numbered {@code failAt} (0 = never). */
  private static final class FailingOps implements TreeWriter.Ops {
    final int failAt;
    final boolean crash;
    int steps;

    FailingOps(int failAt, boolean crash) {
      this.failAt = failAt;
      this.crash = crash;
    }

    private void step() throws IOException {
      if (++steps == failAt) {
        if (crash) {
          throw new Killed();
        }
        throw new IOException("injected failure at step " + steps);
      }
    }

    @Override
    public void move(Path from, Path to) throws IOException {
      step();
      TreeWriter.Ops.REAL.move(from, to);
    }

    @Override
    public void createDirectory(Path dir) throws IOException {
      step();
      TreeWriter.Ops.REAL.createDirectory(dir);
    }
  }

  /** The process dying mid-write: no roll-back runs. */
  private static final class Killed extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  private static final RenderedTree OLD =
      tree("a.yml", "a1\n", "b/c.yml", "c1\n", "stale/s.yml", "s\n", "same.yml", "=\n");
  private static final RenderedTree NEW =
      tree("a.yml", "a2\n", "b/c.yml", "c2\n", "n/e/w.yml", "w\n", "same.yml", "=\n");

  private int stepsOfAWrite() throws Exception {
    Path probe = tmp.resolve("probe/out");
    TreeWriter.write(probe, OLD, false);
    FailingOps count = new FailingOps(0, false);
    TreeWriter.write(probe, NEW, false, count);
    return count.steps;
  }

  @Test
  void aFailureAtAnyStepLeavesTheOldTreeExactly() throws Exception {
    int steps = stepsOfAWrite();
    assertTrue(steps >= 8, "journal, 3 placed files + 2 set aside, 2 folders, 1 stale, manifest");
    for (int k = 1; k <= steps; k++) {
      Path dir = tmp.resolve("run" + k + "/out");
      TreeWriter.write(dir, OLD, false);
      Files.writeString(dir.resolve("terraform.tfstate"), "{}"); // a user's file
      String before = hashTree(dir);
      int failAt = k;
      Failure x =
          assertThrows(
              Failure.class,
              () -> TreeWriter.write(dir, NEW, false, new FailingOps(failAt, false)),
              "step " + k);
      assertEquals(Failure.Kind.ENVIRONMENT, x.kind());
      assertTrue(x.getMessage().contains("injected failure at step " + k), x.getMessage());
      assertEquals(before, hashTree(dir), "rolled back after a failure at step " + k);
      try (Stream<Path> s = Files.list(dir.getParent())) {
        assertEquals(List.of(dir), s.toList(), "no staging or lock left (step " + k + ")");
      }
      TreeWriter.write(dir, NEW, false);
      assertEquals(Manifest.of(contents(NEW)).files(), Manifest.read(dir).files());
    }
    assertVictimUntouched();
  }

  @Test
  void aRunKilledAtAnyStepIsCompletedOrUndoneByTheNextRender() throws Exception {
    int steps = stepsOfAWrite();
    for (int k = 1; k <= steps; k++) {
      for (RenderedTree next : List.of(OLD, NEW)) {
        Path dir = tmp.resolve("kill" + k + (next == OLD ? "back" : "fwd") + "/out");
        TreeWriter.write(dir, OLD, false);
        int failAt = k;
        assertThrows(
            Killed.class, () -> TreeWriter.write(dir, NEW, false, new FailingOps(failAt, true)));
        // Whichever spec the user renders next, the half-written folder is gpugen's own.
        TreeWriter.write(dir, next, false);
        assertEquals(Manifest.of(contents(next)), Manifest.read(dir), "step " + k);
        for (Map.Entry<String, RenderedTree.File> f : next.files().entrySet()) {
          assertEquals(
              new String(f.getValue().content(), StandardCharsets.UTF_8),
              Files.readString(dir.resolve(f.getKey())));
        }
        assertEquals(
            next == OLD,
            Files.exists(dir.resolve("stale/s.yml")),
            "stale file state after step " + k);
      }
    }
  }

  private static Map<String, byte[]> contents(RenderedTree t) {
    Map<String, byte[]> m = new TreeMap<>();
    t.files().forEach((k, v) -> m.put(k, v.content()));
    return m;
  }

  @Test
  void concurrentRendersIntoOneParentNeverBreakEachOther() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    AtomicInteger failures = new AtomicInteger();
    try {
      for (int round = 0; round < 32; round++) {
        List<Future<?>> runs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          // Two runs into one folder, two into siblings: all share the parent.
          Path dir = tmp.resolve("parent/out" + (i % 3));
          RenderedTree t = tree("a.yml", "round " + round + "\n", "b/c.yml", "c\n");
          runs.add(
              pool.submit(
                  () -> {
                    try {
                      TreeWriter.write(dir, t, false);
                    } catch (Failure e) {
                      failures.incrementAndGet();
                      fail(e);
                    }
                  }));
        }
        for (Future<?> f : runs) {
          f.get();
        }
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(0, failures.get());
    try (Stream<Path> s = Files.list(tmp.resolve("parent"))) {
      assertEquals(3, s.count(), "three folders, no staging or lock file left");
    }
  }
}
