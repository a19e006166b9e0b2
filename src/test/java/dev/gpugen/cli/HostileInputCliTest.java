package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.spec.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks through the command line, each asserting the refusal as a user sees it: the exit code,
 * one line naming the file (and line and column where there is one), no stack trace, and a sibling
 * tree hashed before and after to prove nothing outside the output folder changed.
 */
class HostileInputCliTest {
  static final String EXAMPLE = "examples/aws-h100/cluster.yaml";

  @TempDir Path tmp;
  Path out;
  Path victim;
  String victimBefore;

  @BeforeEach
  void setUp() throws IOException {
    out = tmp.resolve("out");
    victim = Files.createDirectories(tmp.resolve("victim"));
    Files.writeString(victim.resolve("precious.txt"), "AWS_SECRET=precious\n");
    victimBefore = hashTree(victim);
  }

  static String hashTree(Path root) throws IOException {
    SortedMap<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.toList()) {
        String rel = root.relativize(p).toString();
        m.put(
            rel,
            Files.isSymbolicLink(p)
                ? "link " + Files.readSymbolicLink(p)
                : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                    ? "dir"
                    : Sha256.hex(Files.readAllBytes(p)));
      }
    }
    return m.toString();
  }

  private void assertVictimUntouched() throws IOException {
    assertEquals(victimBefore, hashTree(victim), "nothing outside the output folder changed");
  }

  /** One line on stderr, no stack trace. */
  static void assertOneLine(Cli r) {
    assertEquals(1, r.err().lines().count(), r.toString());
    assertFalse(r.err().contains("\tat "), r.toString());
    assertFalse(r.err().contains("Exception"), r.toString());
  }

  private void addManifestEntry(String entry, String sha) throws IOException {
    Path m = out.resolve(".gpugen-manifest.json");
    Files.writeString(
        m,
        Files.readString(m)
            .replaceFirst(
                "\"files\": \\{", "\"files\": {\n    \"" + entry + "\": \"" + sha + "\","));
  }

  @Test
  void aTamperedManifestNeitherDeletesNorPrintsOutsideTheFolder() throws Exception {
    assertEquals(0, Cli.run("render", EXAMPLE, "-o", out.toString()).exit());
    String sha = Sha256.hex(Files.readAllBytes(victim.resolve("precious.txt")));
    addManifestEntry("../victim/precious.txt", sha);
    addManifestEntry(victim.resolve("precious.txt").toString(), sha);
    addManifestEntry("/proc/self/environ", sha);
    String before = hashTree(out);
    for (String[] args :
        new String[][] {
          {"render", EXAMPLE, "-o", out.toString()},
          {"render", EXAMPLE, "-o", out.toString(), "--force"},
          {"render", EXAMPLE, "-o", out.toString(), "--check"},
        }) {
      Cli r = Cli.run(args);
      assertEquals(1, r.exit(), r.toString());
      assertOneLine(r);
      assertTrue(
          r.err().startsWith("gpugen: " + out.resolve(".gpugen-manifest.json") + ":3:5: entry "),
          r.err());
      assertFalse(r.out().contains("AWS_SECRET") || r.err().contains("AWS_SECRET"), r.toString());
      assertFalse(r.out().contains("PATH="), "no environment printed: " + r.out());
    }
    assertEquals(before, hashTree(out));
    assertVictimUntouched();
  }

  @Test
  void aUsersFileAtANewGeneratedPathIsRefusedUnlessForced() throws Exception {
    assertEquals(0, Cli.run("render", EXAMPLE, "-o", out.toString()).exit());
    Path pullTf = out.resolve("terraform/pull.tf");
    Files.writeString(pullTf, "# my own pull.tf\n");
    Path pull = tmp.resolve("pull.yaml");
    Files.writeString(
        pull,
        Files.readString(Path.of("examples/aws-h100/cluster.yaml"))
            .replaceFirst("(?m)^ansible:\n", "ansible:\n  mode: pull\n"));
    Cli r = Cli.run("render", pull.toString(), "-o", out.toString());
    assertEquals(1, r.exit(), r.toString());
    assertOneLine(r);
    assertTrue(
        r.err()
            .contains(
                "files gpugen did not write are where the render puts its own:"
                    + " terraform/pull.tf"),
        r.err());
    assertEquals("# my own pull.tf\n", Files.readString(pullTf));
    assertVictimUntouched();
  }
}
