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
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
  /** The 1-based line of the first line of {@code file} that contains {@code text}. */
  static int lineOf(Path file, String text) throws IOException {
    List<String> lines = Files.readAllLines(file);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i + 1;
      }
    }
    throw new AssertionError(text + " is not in " + file);
  }

  /**
   * The refusal is one line. Info findings the spec gets (printed before, each with its source line
   * and caret) are not part of it.
   */
  static void assertOneLine(Cli r) {
    List<String> refusal = new ArrayList<>();
    boolean inInfo = false;
    for (String line : r.err().lines().toList()) {
      // The example's findings (its vCPU quota info, the warning at its placeholder SSH range)
      // come before the refusal.
      if (line.contains(": info[") || line.contains(": warning[spec-documentation-address]: ")) {
        inInfo = true;
      } else if (!(inInfo && line.startsWith(" "))) {
        inInfo = false;
        refusal.add(line);
      }
    }
    assertEquals(1, refusal.size(), r.toString());
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
          r.err().contains("gpugen: " + out.resolve(".gpugen-manifest.json") + ":3:5: entry "),
          r.err());
      assertFalse(r.out().contains("AWS_SECRET") || r.err().contains("AWS_SECRET"), r.toString());
      assertFalse(r.out().contains("PATH="), "no environment printed: " + r.out());
    }
    assertEquals(before, hashTree(out));
    assertVictimUntouched();
  }

  @Test
  void aUsersFileAtANewGeneratedPathIsRefusedUnlessForced() throws Exception {
    // The same spec file, rendered, then switched to pull mode.
    Path pull = tmp.resolve("pull.yaml");
    Files.copy(Path.of(EXAMPLE), pull);
    assertEquals(0, Cli.run("render", pull.toString(), "-o", out.toString()).exit());
    Path pullTf = out.resolve("terraform/user-data-h100.sh");
    Files.writeString(pullTf, "# my own user data\n");
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
                    + " terraform/user-data-h100.sh"),
        r.err());
    assertEquals("# my own user data\n", Files.readString(pullTf));
    assertVictimUntouched();
  }

  /**
   * The manifest's owner is outside text: a tampered one (an escape sequence, a NUL) is printed
   * escaped in the refusal, one line, exit 2, and nothing is written.
   */
  @Test
  void aTamperedOwnerInTheManifestIsPrintedEscapedAndRefused() throws Exception {
    assertEquals(0, Cli.run("render", EXAMPLE, "-o", out.toString()).exit());
    Path manifest = out.resolve(".gpugen-manifest.json");
    String text = Files.readString(manifest);
    Files.writeString(
        manifest,
        text.replaceFirst("\"spec\": \"[^\"]*\"", "\"spec\": \"\\\\u001b[2Jevil\\\\u0000.yaml\""));
    assertTrue(Files.readString(manifest).contains("evil"), "the owner was replaced");
    Cli r = Cli.run("render", EXAMPLE, "-o", out.toString());
    assertEquals(2, r.exit(), r.toString());
    assertOneLine(r);
    assertTrue(r.err().contains("\\x1b[2Jevil"), r.err());
    assertFalse(r.err().contains("\u001b"), "no raw escape reaches the terminal");
    assertVictimUntouched();
  }

  private Path specWith(String example, String from, String to) throws IOException {
    String text = Files.readString(Path.of(example));
    assertTrue(text.contains(from), from);
    Path p = tmp.resolve("spec-" + Integer.toHexString(to.hashCode()) + ".yaml");
    Files.writeString(p, text.replace(from, to));
    return p;
  }

  static final String STATIC = "examples/static-baremetal/cluster.yaml";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ansible_connection: local",
        "ansible_python_interpreter: /usr/bin/touch PWNED",
        "ansible_ssh_common_args: -oProxyCommand=touch",
        "ansible_become_exe: /tmp/x",
        "ansible_shell_executable: /tmp/x",
        "ansible_become: yes",
        "ansible_become_password: hunter2",
        "aws_secret_access_key: abc",
        "aws_access_key_id: AKIAEXAMPLE",
        "db_password: x",
        "api_token: x",
        "gpugen_spec_sha256: x"
      })
  void hostVarsThatRunCodeOrHoldSecretsAreRefusedAtTheirKey(String var) throws Exception {
    Path spec = specWith(STATIC, "vars: {ansible_user: ops}", "vars: {" + var + "}");
    Cli r = Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(1, r.exit(), r.toString());
    String key = var.substring(0, var.indexOf(':'));
    assertTrue(
        r.err()
            .startsWith(
                spec
                    + ":"
                    + lineOf(spec, "infer-01")
                    + ":54: error[spec-value]: the key pools[1].hosts[0].vars."
                    + key),
        r.err());
    assertFalse(Files.exists(out), "nothing rendered");
    assertFalse(Files.exists(Path.of("PWNED")));
    assertVictimUntouched();
  }

  @Test
  void anAccessKeyInAHostVarValueIsASecretFinding() throws Exception {
    Path spec = specWith(STATIC, "vars: {ansible_user: ops}", "vars: {note: AKIAIOSFODNN7EXAMPLE}");
    Cli r = Cli.run("validate", spec.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        r.out()
            .contains(
                ":"
                    + lineOf(spec, "infer-01")
                    + ":60: error[sec-secret-in-spec]: pools[1].hosts[0].vars.note contains"),
        r.out());
    // The line shown under the finding masks the key: a terminal or CI log never gets a copy.
    assertFalse(r.out().contains("AKIAIOSFODNN7EXAMPLE"), r.out());
    assertTrue(r.out().contains("vars: {note: AKIA****************}"), r.out());
  }

  /** A secret access key in the line shown under a finding is masked whole. */
  @Test
  void aSecretKeyIsMaskedInTheLineShown() throws Exception {
    String secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    Path spec = specWith(STATIC, "vars: {ansible_user: ops}", "vars: {note: " + secret + "}");
    Cli r = Cli.run("validate", spec.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.out().contains("error[sec-secret-in-spec]"), r.out());
    assertFalse(r.out().contains(secret), r.out());
    assertTrue(r.out().contains("vars: {note: " + "*".repeat(40) + "}"), r.out());
  }

  /**
   * Every string of the spec is scanned, not a list of fields: an access key in a control-plane
   * host's variable, in a mirror URL, in an ARN, an environment overlay or a Git URL used to reach
   * the render. Each row: the example, the text replaced, its replacement, the finding's path.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        STATIC
            + "|{name: cp-01, address: 10.40.0.5}"
            + "|{name: cp-01, address: 10.40.0.5, vars: {note: AKIAIOSFODNN7EXAMPLE}}"
            + "|kubernetes.controlPlane.hosts[0].vars.note",
        EXAMPLE
            + "|kernel:\n"
            + "|mirrors: {ubuntu: https://mirror.example/AKIAIOSFODNN7EXAMPLE/ubuntu}\nkernel:\n"
            + "|mirrors.ubuntu",
        EXAMPLE + "|role/platform-admin" + "|role/AKIAIOSFODNN7EXAMPLE" + "|kubernetes.admins[0]",
        STATIC
            + "|{name: cp-01, address: 10.40.0.5}"
            + "|{name: cp-01, address: 10.40.0.5, vars: {note: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY}}"
            + "|kubernetes.controlPlane.hosts[0].vars.note",
        EXAMPLE
            + "|  dev:\n"
            + "|  stage: {nccl: {env: {NCCL_DEBUG: AKIAIOSFODNN7EXAMPLE}}}\n  dev:\n"
            + "|environments.stage.nccl.env.NCCL_DEBUG"
      })
  void anAccessKeyAnywhereInTheSpecIsASecretFinding(String row) throws Exception {
    String[] p = row.split("\\|");
    Path spec = specWith(p[0], p[1], p[2]);
    Cli r = Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.err().contains(" error[sec-secret-in-spec]: " + p[3] + " contains"), r.err());
    assertFalse(Files.exists(out), "nothing rendered");
  }

  @ParameterizedTest
  @ValueSource(strings = {".inf", "-.inf", ".nan", ".NaN", "+.Inf"})
  void nonFiniteNumbersAreARangeErrorNotACrash(String value) throws Exception {
    Path spec = specWith(EXAMPLE, "minBusBandwidthGBps: 350", "minBusBandwidthGBps: " + value);
    Cli r = Cli.run("validate", spec.toString());
    assertEquals(1, r.exit(), r.toString());
    // YAML 1.2's JSON schema reads .NaN and +.Inf as strings: a type error, also positioned.
    assertTrue(
        r.out().startsWith(spec + ":" + lineOf(spec, "minBusBandwidthGBps") + ":40: error[spec-"),
        r.out());
    assertFalse(r.err().contains("internal error"), r.err());
  }

  @Test
  void aKeyWithANewlineIsOneFindingAndEveryOtherFileIsStillChecked() throws Exception {
    Path nl = specWith(EXAMPLE, "workload-type: training", "\"a\\nb\": training");
    Path missing = tmp.resolve("missing.yaml");
    Path bad = specWith(EXAMPLE, "count: 16", "count: -16");
    Cli r = Cli.run("validate", nl.toString(), missing.toString(), bad.toString(), EXAMPLE);
    assertEquals(3, r.exit(), "an unreadable file is exit 3: " + r);
    assertEquals("gpugen: " + missing + ": no such file\n", r.err());
    assertTrue(
        r.out()
            .contains(
                nl
                    + ":"
                    + lineOf(nl, "\"a\\nb\"")
                    + ":14: error[spec-value]: the key pools[0].labels[\"a\\nb\"]"),
        r.out());
    assertTrue(r.out().contains(nl + ": 1 error"), r.out());
    assertTrue(r.out().contains(bad + ": 1 error"), "the file after the missing one: " + r.out());
    assertTrue(r.out().contains(EXAMPLE + ": 0 errors"), r.out());
    for (String line : r.out().split("\n")) {
      assertFalse(line.contains("\u001b"), line);
    }
  }

  @Test
  void controlCharactersAreNamedAtTheirPositionAndNeverPrintedRaw() throws Exception {
    Path esc = tmp.resolve("esc.yaml");
    Files.writeString(
        esc,
        "apiVersion: gpugen/v1\nkind: GpuCluster\nmetadata:\n  name: x\n  \u001b[2J\u001b[H: 1\n");
    Cli r = Cli.run("validate", esc.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        r.out().startsWith(esc + ":5:3: error[spec-yaml-syntax]: the spec contains ESC (U+001B)"),
        r.out());
    assertFalse(r.out().contains("\u001b"), "no raw escape reaches the terminal");
    // Escapes YAML does allow (in a quoted string) and a bidi override are echoed escaped.
    Path quoted = tmp.resolve("quoted.yaml");
    Files.writeString(
        quoted,
        Files.readString(Path.of(EXAMPLE))
            .replace("workload-type: training", "\"x\\e[2J\u202e\": training"));
    Cli q = Cli.run("validate", quoted.toString());
    assertEquals(1, q.exit(), q.toString());
    assertFalse(q.out().contains("\u001b") || q.out().contains("\u202e"), q.out());
    assertTrue(q.out().contains("\\u202e"), q.out());
  }

  /**
   * --templates overrides are read only as regular files under the folder, each at most 1 MiB: a
   * linked static file would copy an outside file into the render, a linked .ftl gave an internal
   * error, a 3 GiB file an OutOfMemoryError, a FIFO was skipped without a word (and would block a
   * read). Each is one line naming the file, exit 3, nothing written.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {"linked static file", "linked template", "linked folder", "3 GiB", "FIFO"})
  @org.junit.jupiter.api.Timeout(60)
  void aTemplateOverrideThatIsNoPlainFileIsRefusedNamingIt(String kind) throws Exception {
    Path t = Files.createDirectories(tmp.resolve("t/ansible"));
    Path precious = victim.resolve("precious.txt");
    String name;
    switch (kind) {
      case "linked static file" -> {
        name = "ansible/02-container-runtime.yml";
        Files.createSymbolicLink(t.resolve("02-container-runtime.yml"), precious);
      }
      case "linked template" -> {
        name = "ansible/site.yml.ftl";
        Files.createSymbolicLink(t.resolve("site.yml.ftl"), precious);
      }
      case "linked folder" -> {
        name = "ansible/roles";
        Files.createSymbolicLink(t.resolve("roles"), victim);
      }
      case "3 GiB" -> {
        name = "ansible/02-container-runtime.yml";
        try (java.nio.channels.FileChannel ch =
            java.nio.channels.FileChannel.open(
                t.resolve("02-container-runtime.yml"),
                java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
          ch.position(3L << 30).write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}));
        }
      }
      default -> {
        name = "ansible/02-container-runtime.yml";
        Process mk =
            new ProcessBuilder("mkfifo", t.resolve("02-container-runtime.yml").toString()).start();
        assertEquals(0, mk.waitFor());
      }
    }
    Cli r =
        Cli.run(
            "render", EXAMPLE, "-o", out.toString(), "--templates", tmp.resolve("t").toString());
    assertEquals(3, r.exit(), r.toString());
    // The spec's own findings (the quota info) come first; the refusal is one line after them.
    List<String> refusal = r.err().lines().filter(l -> l.startsWith("gpugen:")).toList();
    assertEquals(1, refusal.size(), r.err());
    assertTrue(
        refusal.get(0).startsWith("gpugen: --templates " + tmp.resolve("t") + ": " + name + " "),
        r.err());
    assertFalse(r.err().contains("Exception") || r.err().contains("Error:"), r.err());
    assertFalse(Files.exists(out), "nothing rendered");
    assertVictimUntouched();
  }

  /**
   * A bidi override (and an ESC) in the spec's file name: every generated file's first line names
   * the spec, so a raw U+202E would reorder that line for whoever reads the file (CVE-2021-42574).
   * The header holds the name as plain printable text, escaped.
   */
  @Test
  void aBidiControlInTheSpecNameIsEscapedInEveryHeader() throws Exception {
    Path spec = tmp.resolve("spec\u202elmay.\u001b[2Jx.yaml");
    Files.copy(Path.of(EXAMPLE), spec);
    Cli r = Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    int headers = 0;
    try (Stream<Path> files = Files.walk(out)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String text = Files.readString(f);
        assertFalse(text.contains("\u202e") || text.contains("\u001b"), f.toString());
        if (text.contains("Code generated by gpugen from ../spec\\u202elmay.\\x1b[2Jx.yaml;")) {
          headers++;
        }
      }
    }
    assertTrue(headers > 50, "headers naming the spec escaped: " + headers);
  }

  @Test
  void aFifoAsSpecIsRefusedAtOnce() throws Exception {
    Path fifo = tmp.resolve("spec.yaml");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertEquals(0, mk.waitFor());
    Cli r = Cli.run("validate", fifo.toString());
    assertEquals(3, r.exit(), r.toString());
    assertEquals(
        "gpugen: "
            + fifo
            + ": is not a regular file (a pipe or a device); give the path of a spec file\n",
        r.err());
    assertVictimUntouched();
  }

  @Test
  void aSpecCannotSwitchOffItsOwnSecurityRulesWithoutAReason() throws Exception {
    Path spec =
        specWith(
            "src/test/resources/diagnostics/sec-imdsv1-enabled/fires.yaml",
            "software:",
            "lint: {skip: [sec-imdsv1-enabled]}\nsoftware:");
    Cli r = Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.err().contains("error[sec-imdsv1-enabled]"), "the rule stays on: " + r.err());
    assertTrue(
        r.err()
            .contains(
                "error[spec-lint-settings]: the spec skips the security rule"
                    + " sec-imdsv1-enabled without a reason"),
        r.err());
    assertFalse(Files.exists(out));
    // With a reason the skip holds, unless CI ignores the spec's suppressions.
    Path reasoned =
        specWith(
            "src/test/resources/diagnostics/sec-imdsv1-enabled/fires.yaml",
            "software:",
            "lint:\n  skip: [sec-imdsv1-enabled]\n  reasons: {sec-imdsv1-enabled: \"legacy AMI"
                + " reads IMDSv1 until its agent is replaced\"}\nsoftware:");
    assertEquals(0, Cli.run("validate", reasoned.toString()).exit());
    Cli ci = Cli.run("validate", "--no-spec-suppressions", reasoned.toString());
    assertEquals(1, ci.exit(), ci.toString());
    assertTrue(ci.out().contains("error[sec-imdsv1-enabled]"), ci.out());
    assertVictimUntouched();
  }

  @Test
  void unknownRuleIdsAreUsageErrorsWithASuggestion() {
    Cli r = Cli.run("validate", "--skip-rule", "sec-imdsv1-enable", EXAMPLE);
    assertEquals(2, r.exit(), r.toString());
    assertEquals(
        "gpugen: --skip-rule sec-imdsv1-enable is not a rule id; did you mean"
            + " sec-imdsv1-enabled? (gpugen explain lists them)\n",
        r.err());
    Cli reader = Cli.run("validate", "--skip-rule", "spec-unknown-key", EXAMPLE);
    assertEquals(2, reader.exit(), reader.toString());
    assertOneLine(reader);
    assertTrue(reader.err().contains("cannot be skipped"), reader.err());
    assertEquals(2, Cli.run("validate", "--skip-rule", "nope", EXAMPLE).exit());
    assertEquals(0, Cli.run("explain", "drv-cuda-needs-newer-driver").exit());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "[0.0.0.0/1, 128.0.0.0/1]|the whole internet",
        "[0.0.0.0/2, 64.0.0.0/2, 128.0.0.0/2, 192.0.0.0/2]|the whole internet",
        "[0.0.0.0/1, 128.0.0.0/2]|75.0% of the IPv4 internet"
      })
  void theInternetInPiecesIsJudgedByTheUnion(String row) throws Exception {
    String[] parts = row.split("\\|");
    Path spec =
        specWith(
            "src/test/resources/diagnostics/sec-ssh-open-to-world/clean.yaml",
            "sshIngressCidrs: [203.0.113.0/24]",
            "sshIngressCidrs: " + parts[0]);
    Cli r = Cli.run("validate", "--fail-on", "warning", spec.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        r.out()
            .contains(
                "warning[sec-ssh-open-to-world]: network.sshIngressCidrs together open SSH"
                    + " to "
                    + parts[1]),
        r.out());
  }
}
