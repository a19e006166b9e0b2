package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.inventory.Ec2StandIn;
import dev.gpugen.inventory.Ec2StandIn.Instance;
import dev.gpugen.inventory.Fleet;
import dev.gpugen.inventory.StandIns;
import dev.gpugen.spec.Printable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every printing path that carries outside text, driven with ESC sequences (CSI and OSC), a C1
 * control (U+009B, the one-byte CSI) and a bidi override (U+202E): the render check's diff of a
 * hand-edited file, the -o and spec paths in "rendered ..." and the next steps, validate of a
 * missing file, settings from gpugen-inventory.json and GPUGEN_* variables, EC2 instance types and
 * zones, usage errors and explain. Nothing printed holds one of them raw; each is shown as its
 * escape ({@code \x1b}, {@code \x9b}, {@code \u202e}), the one escaper every path uses ({@link
 * Printable}).
 */
class TerminalEscapesTest {
  /** A CSI that clears the screen, an OSC that sets the title, a C1 CSI and a bidi override. */
  static final String NASTY = "a\u001b[2J\u001b]0;owned\u0007\u009b31m\u202eb";

  static final String SHOWN = "a\\x1b[2J\\x1b]0;owned\\x07\\x9b31m\\u202eb";

  @TempDir Path tmp;
  private Ec2StandIn ec2;

  @BeforeEach
  void start() throws Exception {
    ec2 = Ec2StandIn.start();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  private static void assertNoRawControls(String printed) {
    for (int i = 0; i < printed.length(); i++) {
      char c = printed.charAt(i);
      assertTrue(
          c == '\n' || !Printable.unsafe(c),
          "raw " + Printable.name(c) + " at " + i + " of:\n" + Printable.text(printed));
    }
  }

  private static void assertClean(Cli r) {
    assertNoRawControls(r.out());
    assertNoRawControls(r.err());
  }

  @Test
  void theRenderChecksDiffOfAHandEditedFile() throws Exception {
    Path out = tmp.resolve("out");
    assertEquals(
        0, Cli.run("render", "examples/aws-h100/cluster.yaml", "-o", out.toString(), "-q").exit());
    Files.writeString(out.resolve("ansible/site.yml"), "# " + NASTY + "\n");
    Cli r = Cli.run("render", "examples/aws-h100/cluster.yaml", "-o", out.toString(), "--check");
    assertEquals(1, r.exit(), r.toString());
    assertClean(r);
    assertTrue(r.out().contains("\n-# " + SHOWN + "\n"), r.out());
  }

  @Test
  void theOutputAndSpecPathsInRenderedAndTheNextSteps() throws Exception {
    Path spec = Files.createDirectories(tmp.resolve(NASTY)).resolve("c.yaml");
    Files.copy(Path.of("examples/aws-h100/cluster.yaml"), spec);
    Path out = tmp.resolve("o" + NASTY);
    Cli r = Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    assertClean(r);
    assertTrue(r.out().startsWith("rendered " + tmp + "/o" + SHOWN + ": "), r.out());
    assertTrue(
        r.out().contains("  3. terraform '-chdir=" + tmp + "/oa'\"$(printf '\\033"), r.out());
    // --check of the same folder: "up to date" names it too.
    Cli check = Cli.run("render", spec.toString(), "-o", out.toString(), "--check");
    assertEquals(0, check.exit(), check.toString());
    assertClean(check);
    assertTrue(check.out().startsWith(tmp + "/o" + SHOWN + " is up to date"), check.out());
  }

  @Test
  void validateOfAMissingFile() {
    Cli r = Cli.run("validate", "examples/aws-h100/cluster.yaml", tmp.resolve(NASTY).toString());
    assertEquals(3, r.exit(), r.toString());
    assertClean(r);
    assertEquals("gpugen: " + tmp + "/" + SHOWN + ": no such file\n", r.err());
  }

  private Map<String, String> inventoryEnv(String... more) {
    Map<String, String> env = new HashMap<>();
    env.put("GPUGEN_EC2_ENDPOINT", ec2.endpoint().toString());
    env.put("GPUGEN_CACHE_TTL_SECONDS", "0");
    env.put("GPUGEN_MAX_ATTEMPTS", "1");
    for (int i = 0; i + 1 < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  private StandIns.Run inventory(Map<String, String> env, Path config) {
    return StandIns.run(
        StandIns.context(env, Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC)),
        "--list",
        "--config",
        config.toString());
  }

  private static void assertClean(StandIns.Run r) {
    assertNoRawControls(r.out());
    assertNoRawControls(r.err());
  }

  @Test
  void valuesFromTheInventorySettingsFileAndGpugenVariables() throws Exception {
    Path config =
        Files.writeString(
            tmp.resolve("gpugen-inventory.json"),
            "{\"cluster\": \"demo\", \"hostname\": \""
                + NASTY.replace("\u001b", "\\u001b").replace("\u0007", "\\u0007")
                + "\"}");
    StandIns.Run fromFile = inventory(inventoryEnv(), config);
    assertEquals(1, fromFile.code(), fromFile.err());
    assertClean(fromFile);
    assertTrue(fromFile.err().contains(SHOWN), fromFile.err());

    Path plain = Files.writeString(tmp.resolve("plain.json"), "{\"cluster\": \"demo\"}");
    StandIns.Run fromEnv = inventory(inventoryEnv("GPUGEN_STATES", NASTY), plain);
    assertEquals(1, fromEnv.code(), fromEnv.err());
    assertClean(fromEnv);
    assertTrue(
        fromEnv.err().contains("GPUGEN_STATES") || fromEnv.err().contains("\"states\""),
        fromEnv.err());
    assertTrue(fromEnv.err().contains(SHOWN), fromEnv.err());
  }

  @Test
  void instanceTypesAndZonesFromEc2() throws Exception {
    ec2.add(
        Instance.of(
            Fleet.id(1),
            "p5.48xlarge\u202e\u009b",
            "us-east-1a\u009b",
            Fleet.tags("demo", "", "gpu", "node-1")));
    Path config =
        Files.writeString(
            tmp.resolve("gpugen-inventory.json"),
            "{\"cluster\": \"demo\", \"regions\": [\"us-east-1\"]}");
    StandIns.Run r =
        inventory(
            inventoryEnv(
                "AWS_ACCESS_KEY_ID", Ec2StandIn.ACCESS_KEY_ID, "AWS_SECRET_ACCESS_KEY", "secret"),
            config);
    assertEquals(0, r.code(), r.err());
    assertClean(r);
    assertTrue(r.err().contains("\\u202e\\x9b"), r.err());
    assertTrue(r.err().contains("us-east-1a\\x9b"), r.err());
  }

  @Test
  void usageErrorsAndExplainEchoTheArgumentEscaped() {
    Cli unknown = Cli.run("render", "examples/aws-h100/cluster.yaml", "--bogus" + NASTY);
    assertEquals(2, unknown.exit(), unknown.toString());
    assertClean(unknown);
    assertTrue(unknown.err().contains(SHOWN), unknown.err());
    Cli explain = Cli.run("explain", NASTY);
    assertEquals(2, explain.exit(), explain.toString());
    assertClean(explain);
    assertEquals("gpugen: no rule " + SHOWN + " (gpugen explain lists them)\n", explain.err());
  }
}
