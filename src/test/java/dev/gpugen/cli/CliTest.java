package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Cli;
import dev.gpugen.Golden;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's contract: exit codes, streams, formats, and nothing lost on failure. */
class CliTest {
  static final String EXAMPLE = "examples/aws-h100/cluster.yaml";
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void versionAndHelp() {
    Cli v = Cli.run("--version");
    assertEquals(0, v.exit());
    assertTrue(v.out().matches("gpugen \\d+\\.\\d+\\.\\d+\\s*"), v.out());
    for (String cmd :
        new String[] {
          "validate", "render", "schema", "explain", "init", "generate-completion", "up", "down"
        }) {
      Cli h = Cli.run(cmd, "--help");
      assertEquals(0, h.exit(), cmd + "\n" + h);
      assertTrue(h.out().contains("Usage: gpugen " + cmd), h.out());
    }
    assertTrue(Cli.run("--help").out().contains("4   internal error"), "exit codes documented");
  }

  @Test
  void usageErrorsExitTwo() {
    Cli r = Cli.run("render", "--no-such-option", EXAMPLE);
    assertEquals(2, r.exit(), r.toString());
    assertTrue(r.err().contains("Unknown option"), r.err());
    assertEquals(2, Cli.run("validate").exit(), "SPEC is required");
    assertEquals(2, Cli.run("explain", "no-such-rule").exit());
  }

  /**
   * validate and render build picocli's model in code, the other commands from annotations plus the
   * shared options: each binds what it is given, as the annotations did.
   */
  @Test
  void everyCommandBindsItsOptionsWhicheverWayItsModelIsBuilt() {
    Cli missing = Cli.run("render");
    assertEquals(2, missing.exit(), missing.toString());
    assertTrue(
        missing.err().startsWith("gpugen: Missing required parameter: 'SPEC'"), missing.err());
    Cli version = Cli.run("render", "-V");
    assertEquals(0, version.exit(), version.toString());
    assertTrue(version.out().startsWith("gpugen "), version.out());
    // A repeated option keeps every value: each order names the bad id.
    for (String command : new String[] {"validate", "render", "plan"}) {
      for (String[] ids :
          new String[][] {
            {"no-such-rule", "sec-imdsv1-enabled"}, {"sec-imdsv1-enabled", "no-such-rule"}
          }) {
        Cli r = Cli.run(command, "--skip-rule", ids[0], "--skip-rule", ids[1], EXAMPLE);
        assertEquals(2, r.exit(), command + " " + r);
        assertTrue(r.err().contains("--skip-rule no-such-rule is not a rule id"), r.err());
      }
    }
    // An enum value in any case; one that is none of them names them.
    assertEquals(0, Cli.run("validate", "--fail-on", "Error", "--format", "JSON", EXAMPLE).exit());
    Cli bad = Cli.run("render", "--fail-on", "fatal", EXAMPLE, "--check");
    assertEquals(2, bad.exit(), bad.toString());
    assertTrue(bad.err().contains("expected one of [ERROR, WARNING, INFO]"), bad.err());
    // The shared options reach annotated commands too, --verbose every command.
    Cli env = Cli.run("plan", "--env", "no-such-env", EXAMPLE);
    assertEquals(1, env.exit(), env.toString());
    assertTrue(env.err().contains("declared: dev"), env.err());
    for (String command : new String[] {"explain", "schema", "init", "report", "drift", "up"}) {
      Cli h = Cli.run(command, "--help");
      assertTrue(h.out().contains("-v, --verbose"), command + "\n" + h.out());
    }
  }

  /**
   * A flag takes an attached true or false, as picocli's annotated boolean options do (their arity
   * is left unspecified): --check=true was accepted before render's model was built in code.
   */
  @Test
  void aFlagTakesAnAttachedTrueOrFalseOnEveryCommand() {
    Path out = tmp.resolve("out");
    assertEquals(0, Cli.run("render", "-q", EXAMPLE, "-o", out.toString()).exit());
    for (String[] args :
        new String[][] {
          {"render", "--check=true", "--quiet=false", EXAMPLE, "-o", out.toString()},
          {"validate", "--no-spec-suppressions=true", "--verbose=false", EXAMPLE},
          {"plan", "--no-spec-suppressions=false", "--verbose=true", EXAMPLE}
        }) {
      Cli r = Cli.run(args);
      assertEquals(0, r.exit(), String.join(" ", args) + "\n" + r);
    }
    Cli stale = Cli.run("render", "--check=true", EXAMPLE, "-o", tmp.resolve("none").toString());
    assertEquals(1, stale.exit(), "--check=true checks: " + stale);
  }

  /**
   * A command line executed twice starts the second parse from the initial values: nothing given
   * the first time (a flag, a repeated option, an enum, a path) is left over, whichever way the
   * command's model is built.
   */
  @Test
  void aCommandLineExecutedTwiceKeepsNothingOfTheFirstRun() {
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.PrintWriter sink = new java.io.PrintWriter(out, true);
    Path none = tmp.resolve("none");
    Path written = tmp.resolve("written");
    picocli.CommandLine render = GpugenCommand.commandLine(new String[] {"render"});
    render.setOut(sink);
    render.setErr(sink);
    assertEquals(
        1,
        render.execute(
            "render", "--check", "--skip-rule", "aws-vcpu-quota", "-o", none + "", EXAMPLE));
    assertEquals(0, render.execute("render", "-q", "-o", written + "", EXAMPLE), out.toString());
    assertTrue(Files.isDirectory(written), "--check was reset: the second run wrote");
    assertFalse(Files.exists(none));
    for (String command : new String[] {"validate", "plan"}) {
      picocli.CommandLine cl = GpugenCommand.commandLine(new String[] {command});
      cl.setOut(sink);
      cl.setErr(sink);
      assertEquals(2, cl.execute(command, "--skip-rule", "no-such-rule", EXAMPLE), command);
      assertEquals(1, cl.execute(command, "--fail-on", "info", EXAMPLE), command);
      assertEquals(0, cl.execute(command, EXAMPLE), command + ": " + out);
    }
  }

  /** -V prints the version on every subcommand, not only on those whose model is built in code. */
  @Test
  void everySubcommandPrintsTheVersion() {
    String version = Cli.run("--version").out();
    for (String cmd :
        new String[] {"validate", "render", "plan", "up", "down", "drift", "explain", "schema"}) {
      Cli v = Cli.run(cmd, "-V");
      assertEquals(0, v.exit(), cmd + "\n" + v);
      assertEquals(version, v.out(), cmd);
    }
  }

  /**
   * The options a model transformer adds stand where the @Mixin put them: before -h and -V, which
   * --help lists last on the commands that keep their declaration order.
   */
  @Test
  void helpListsTheSharedOptionsBeforeHelpAndVersion() {
    for (String cmd : new String[] {"up", "down", "drift", "report"}) {
      String help = Cli.run(cmd, "--help").out();
      int verbose = help.indexOf("-v, --verbose");
      int helpOption = help.indexOf("-h, --help");
      assertTrue(verbose > 0 && helpOption > verbose, cmd + "\n" + help);
    }
  }

  @Test
  void missingFileExitsThreeWithOneLine() {
    Cli r = Cli.run("validate", "does/not/exist.yaml");
    assertEquals(3, r.exit(), r.toString());
    assertEquals("gpugen: does/not/exist.yaml: no such file\n", r.err());
  }

  @Test
  void validateJsonIsMachineReadable() throws Exception {
    Cli r =
        Cli.run(
            "validate",
            "--format",
            "json",
            EXAMPLE,
            "src/test/resources/diagnostics/spec-unknown-key/fires.yaml");
    assertEquals(1, r.exit(), r.toString());
    JsonNode root = JSON.readTree(r.out());
    assertEquals(1, root.get("errors").asInt());
    // The example is clean but for the warning at its placeholder SSH range and its quota infos
    // (base and dev), so the one error is the other file's.
    assertEquals(4, root.get("diagnostics").size(), r.out());
    assertEquals(1, root.get("warnings").asInt());
    assertEquals(
        "spec-documentation-address", root.get("diagnostics").get(0).get("rule").asText(), r.out());
    assertEquals("aws-vcpu-quota", root.get("diagnostics").get(1).get("rule").asText(), r.out());
    assertEquals("aws-vcpu-quota", root.get("diagnostics").get(2).get("rule").asText(), r.out());
    JsonNode d = root.get("diagnostics").get(3);
    assertEquals("spec-unknown-key", d.get("rule").asText());
    assertEquals(10, d.get("line").asInt());
    assertEquals(5, d.get("column").asInt());
    assertEquals("pools[0].instanceTyp", d.get("path").asText());
  }

  @Test
  void skipRuleAndFailOnWarning() {
    String fires = "src/test/resources/diagnostics/sec-ssh-open-to-world/fires.yaml";
    assertEquals(0, Cli.run("validate", fires).exit(), "a warning alone passes");
    assertEquals(1, Cli.run("validate", "--fail-on", "warning", fires).exit());
    // The case's other warning, at its placeholder range 203.0.113.0/24, still fails the run.
    assertEquals(
        1,
        Cli.run("validate", "--fail-on", "warning", "--skip-rule", "sec-ssh-open-to-world", fires)
            .exit());
    assertEquals(
        0,
        Cli.run(
                "validate",
                "--fail-on",
                "warning",
                "--skip-rule",
                "sec-ssh-open-to-world",
                "--skip-rule",
                "spec-documentation-address",
                fires)
            .exit());
  }

  @Test
  void schemaIsJsonSchemaThatDescribesEveryTopLevelKey() throws Exception {
    Cli r = Cli.run("schema");
    assertEquals(0, r.exit());
    JsonNode s = JSON.readTree(r.out());
    assertEquals("https://json-schema.org/draft/2020-12/schema", s.get("$schema").asText());
    for (String key :
        new String[] {"apiVersion", "metadata", "cloud", "pools", "software", "environments"}) {
      assertTrue(s.get("properties").has(key), key);
    }
    assertEquals("string", s.at("/properties/pools/items/properties/name/type").asText());
    assertFalse(s.get("additionalProperties").asBoolean());
  }

  @Test
  void docsSpecTableIsGeneratedFromTheGrammar() throws Exception {
    Cli r = Cli.run("schema", "--format", "markdown");
    assertEquals(0, r.exit());
    String doc = Files.readString(Path.of("docs/spec.md"));
    String begin = "<!-- BEGIN generated by: gpugen schema --format markdown -->\n";
    String end = "<!-- END generated -->";
    int from = doc.indexOf(begin);
    int to = doc.indexOf(end);
    assertTrue(from >= 0 && to > from, "docs/spec.md has the generated section markers");
    if (Golden.updating()) {
      Files.writeString(
          Path.of("docs/spec.md"),
          doc.substring(0, from + begin.length()) + r.out() + doc.substring(to));
      return;
    }
    assertEquals(
        r.out(),
        doc.substring(from + begin.length(), to),
        "docs/spec.md is stale: run the tests with -Dgpugen.updateGolden=true");
  }

  @Test
  void explainPrintsEveryRule() {
    Cli list = Cli.run("explain");
    assertEquals(0, list.exit());
    assertTrue(list.out().contains("spec-unknown-key"));
    assertTrue(
        list.out().lines().anyMatch(l -> l.matches("sec-ssh-open-to-world +warning  .+")),
        list.out());
    Cli one = Cli.run("explain", "spec-subnet-outside-vpc");
    assertEquals(0, one.exit());
    assertTrue(one.out().contains("InvalidSubnet.Range"), one.out());
  }

  @Test
  void renderWritesNothingWhenTheSpecIsInvalid() throws Exception {
    Path out = tmp.resolve("out");
    Cli r =
        Cli.run(
            "render", "src/test/resources/diagnostics/spec-range/fires.yaml", "-o", out.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.err().contains("nothing rendered"), r.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void aFailedRunLeavesEarlierOutputUntouched() throws Exception {
    Path out = tmp.resolve("out");
    assertEquals(0, Cli.run("render", EXAMPLE, "-o", out.toString()).exit());
    Map<String, byte[]> before = Golden.read(out);
    // An invalid spec into the same folder.
    Path bad = tmp.resolve("bad.yaml");
    Files.writeString(bad, Files.readString(Path.of(EXAMPLE)).replace("count: 16", "count: -16"));
    assertEquals(1, Cli.run("render", bad.toString(), "-o", out.toString()).exit());
    // A template that fails half-way.
    Path templates = Files.createDirectories(tmp.resolve("t/ansible/group_vars"));
    Files.writeString(templates.resolve("all.yml.ftl"), "[=header]\n[=spec.metadata.name]\n");
    Cli broken =
        Cli.run(
            "render", EXAMPLE, "-o", out.toString(), "--templates", tmp.resolve("t").toString());
    assertEquals(4, broken.exit(), broken.toString());
    assertTrue(broken.err().contains("all.yml.ftl:2"), broken.err());
    assertTrue(
        broken.err().contains("raw text"), "fail-closed escaping names the cause: " + broken.err());
    assertFalse(broken.err().contains("\tat "), "no stack trace without --verbose");
    Map<String, byte[]> after = Golden.read(out);
    assertEquals(before.keySet(), after.keySet());
    before.forEach((k, v) -> assertTrue(java.util.Arrays.equals(v, after.get(k)), k));
    Cli verbose =
        Cli.run(
            "render",
            EXAMPLE,
            "-o",
            out.toString(),
            "--templates",
            tmp.resolve("t").toString(),
            "--verbose");
    assertTrue(verbose.err().contains("\tat "), "--verbose shows the stack trace");
  }

  @Test
  void checkIsCleanOnTheCommittedRenderAndFailsWithADiffAfterATemplateChange() throws Exception {
    Cli clean = Cli.run("render", EXAMPLE, "--check");
    assertEquals(0, clean.exit(), clean.toString());
    Path templates = Files.createDirectories(tmp.resolve("t/ansible/group_vars"));
    String original = Files.readString(Path.of("templates/ansible/group_vars/all.yml.ftl"));
    Files.writeString(
        templates.resolve("all.yml.ftl"),
        original.replace("# Cluster-wide values", "# Cluster-wide values (changed)"));
    Cli stale = Cli.run("render", EXAMPLE, "--check", "--templates", tmp.resolve("t").toString());
    assertEquals(1, stale.exit(), stale.toString());
    assertTrue(stale.out().contains("--- a/ansible/group_vars/all.yml"), stale.out());
    assertTrue(
        stale
            .out()
            .contains(
                "\n-# Cluster-wide values from the spec. Pool-specific values are in"
                    + " pool_<name>.yml,\n+# Cluster-wide values (changed) from the spec."),
        stale.out());
    assertTrue(stale.err().contains("is stale"), stale.err());
  }

  @Test
  void defaultOutputFolderFollowsNameAndEnvironment() throws Exception {
    Cli r = Cli.run("render", EXAMPLE, "--env", "dev", "--check");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().startsWith("roles-generated/h100-training-dev is up to date"), r.out());
  }

  @Test
  void validateChecksEveryEnvironmentAndSaysWhichOneAFindingBelongsTo() {
    Cli r = Cli.run("validate", "src/test/resources/specs/env-only-finding.yaml");
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        r.out()
            .contains(
                ":21:26: error[spec-range]: environments.dev.pools.gpu.count is -3; it must be an"
                    + " integer from 0 to 10000\n"),
        r.out());
    // The file is one spec: an invalid overlay makes it invalid whichever environment is chosen.
    Cli prod =
        Cli.run("validate", "--env", "prod", "src/test/resources/specs/env-only-finding.yaml");
    assertEquals(1, prod.exit(), prod.toString());
  }

  @Test
  void lintFindingsOfAnEnvironmentPointAtItsOverlay() throws Exception {
    Path spec = tmp.resolve("env-lint.yaml");
    Files.writeString(
        spec,
        Files.readString(Path.of("src/test/resources/specs/env-only-finding.yaml"))
            .replace("    pools: {gpu: {count: -3}}\n", ""));
    Cli r = Cli.run("validate", spec.toString());
    assertEquals(0, r.exit(), "a warning does not fail validate\n" + r);
    assertTrue(
        r.out()
            .contains(
                ":20:33: warning[sec-ssh-open-to-world]: network.sshIngressCidrs[0] 0.0.0.0/0 opens SSH"
                    + " to the whole internet (environment dev)"),
        r.out());
    assertFalse(
        r.out().lines().anyMatch(l -> l.contains("warning[") && l.contains("(environment prod)")),
        "prod inherits nothing bad: " + r.out());
  }

  @Test
  void allEnvsChecksTheBaseAndEveryEnvironmentInOneRun() throws Exception {
    Cli clean = Cli.run("render", "--check", "--all-envs", EXAMPLE);
    assertEquals(0, clean.exit(), clean.toString());
    assertEquals(
        java.util.List.of(
            "roles-generated/h100-training is up to date",
            "roles-generated/h100-training-dev is up to date"),
        clean.out().lines().map(l -> l.replaceAll(" \\(\\d+ files\\)$", "")).toList());

    Path templates = Files.createDirectories(tmp.resolve("t/ansible/group_vars"));
    String original = Files.readString(Path.of("templates/ansible/group_vars/all.yml.ftl"));
    Files.writeString(
        templates.resolve("all.yml.ftl"), original.replace("# Cluster-wide ", "# Cluster-wide: "));
    String t = tmp.resolve("t").toString();
    Cli stale = Cli.run("render", "--check", "--all-envs", "--templates", t, EXAMPLE, EXAMPLE);
    assertEquals(1, stale.exit(), stale.toString());
    assertEquals(4, stale.out().split("\\+# Cluster-wide: values", -1).length - 1, stale.out());
    assertTrue(
        stale
            .err()
            .contains(
                "roles-generated/h100-training-dev is stale against "
                    + EXAMPLE
                    + "; run: gpugen render "
                    + EXAMPLE
                    + " --env dev --templates "
                    + t),
        stale.err());
  }

  @Test
  void outputFolderTakesOneSpecAndOneEnvironment() {
    String out = tmp.resolve("out").toString();
    Cli two = Cli.run("render", EXAMPLE, EXAMPLE, "-o", out);
    assertEquals(2, two.exit(), two.toString());
    assertTrue(two.err().contains("-o DIR takes one spec and one environment"), two.err());
    assertEquals(2, Cli.run("render", "--all-envs", "-o", out, EXAMPLE).exit());
    assertEquals(2, Cli.run("render", "--all-envs", "--env", "dev", EXAMPLE).exit());
    assertFalse(Files.exists(tmp.resolve("out")));
  }

  @Test
  void completionScriptIsGenerated() {
    Cli r = Cli.run("generate-completion");
    assertEquals(0, r.exit());
    assertTrue(r.out().contains("complete -F"), "a bash completion script");
  }
}
