package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the real external tools that tests check generated output with: ansible-playbook,
 * ansible-lint, pre-commit, hcl2json, and playbook runs against a debootstrap root through the
 * community.general.chroot connection. Install them with {@code scripts/install-test-deps}; see
 * {@code scripts/README-test-harness.md}. A missing tool fails the test (never skips it).
 */
public final class RealTools {
  private RealTools() {}

  /** Exit code and merged stdout+stderr of one finished command. */
  public record Result(List<String> command, int exitCode, String output) {
    /** Fails the calling test with the command and its output unless it exited 0. */
    public Result assertOk() {
      if (exitCode != 0) {
        fail("exit " + exitCode + " from " + String.join(" ", command) + ":\n" + output);
      }
      return this;
    }
  }

  /**
   * The environment of an Ansible run that reads a YAML inventory of the test's own (chroot hosts)
   * from an AWS tree, whose ansible.cfg enables only the script plugin for gpugen-inventory: what
   * the cfg tells a user with a YAML inventory to set.
   */
  public static final Map<String, String> YAML_INVENTORY =
      Map.of("ANSIBLE_INVENTORY_ENABLED", "yaml");

  /**
   * A YAML inventory of one host, {@code testhost}, reached through the chroot connection at {@code
   * root}: a GPU node in {@code gpu_nodes} and in each of {@code groups} (pool_h100, ...).
   */
  public static String chrootInventory(Path root, String... groups) {
    StringBuilder b =
        new StringBuilder("all:\n  children:\n    gpu_nodes:\n      hosts:\n")
            .append("        testhost: {ansible_connection: community.general.chroot,")
            .append(" ansible_host: \"")
            .append(root)
            .append("\"}\n");
    for (String g : groups) {
      b.append("    ").append(g).append(":\n      hosts:\n        testhost:\n");
    }
    return b.toString();
  }

  /** The repository root: Maven runs tests with the project base directory as working dir. */
  public static Path repoRoot() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("scripts"))) {
        return p;
      }
    }
    throw new IllegalStateException("no repository root (pom.xml + scripts/) above " + dir);
  }

  /**
   * Runs a command with a hard timeout (the process tree is killed when it expires) and without
   * stdin. Output goes through a temp file, so a chatty tool can never block on a full pipe.
   */
  public static Result run(Path workDir, Duration timeout, Map<String, String> env, String... cmd)
      throws IOException, InterruptedException {
    return run(workDir, timeout, env, List.of(cmd));
  }

  /** As {@link #run(Path, Duration, Map, String...)}, with the command as a list. */
  public static Result run(
      Path workDir, Duration timeout, Map<String, String> env, List<String> command)
      throws IOException, InterruptedException {
    return exec(workDir, timeout, env, command, true);
  }

  /**
   * Runs one of the harness's own commands (mount, umount, rm of test roots) also outside a test:
   * the JVM shutdown hook and the extension that unmounts after a test use it. Tests use {@link
   * #run}.
   */
  static Result system(Duration timeout, String... cmd) throws IOException, InterruptedException {
    return exec(Path.of("/"), timeout, Map.of(), List.of(cmd), false);
  }

  private static Result exec(
      Path workDir,
      Duration timeout,
      Map<String, String> env,
      List<String> command,
      boolean guarded)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("gpugen-tool-", ".log");
    try {
      ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
      pb.environment().putAll(quietEnv());
      pb.environment().putAll(env);
      pb.redirectErrorStream(true).redirectOutput(out.toFile());
      pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      Process p = guarded ? start(pb) : pb.start();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor();
        fail("timed out after " + timeout + ": " + String.join(" ", command) + "\n" + read(out));
      }
      return new Result(command, p.exitValue(), read(out));
    } finally {
      Files.deleteIfExists(out);
    }
  }

  /**
   * Starts a process: the one way tests start programs, so that only {@link RealToolsTest} code
   * can, and only tests tagged for the cost of the costly programs ({@link #COSTLY}). Anywhere else
   * it fails the test, naming the command.
   */
  public static Process start(ProcessBuilder pb) throws IOException {
    if (!RealToolsGuard.isOpen()) {
      fail(
          "starts "
              + String.join(" ", pb.command())
              + " but is not annotated @RealToolsTest: tag it, so the fast suite"
              + " (-Pfast, -DexcludedGroups=tools) leaves it out");
    }
    String tag = COSTLY.get(Path.of(pb.command().get(0)).getFileName().toString());
    if (tag != null) {
      requireTag(tag, "starts " + String.join(" ", pb.command()));
    }
    return pb.start();
  }

  /** Fails the test unless it carries {@code tag}; {@code what} says what it was about to do. */
  static void requireTag(String tag, String what) {
    if (!RealToolsGuard.hasTag(tag)) {
      fail(
          what
              + " but is not tagged \""
              + tag
              + "\": annotate it @"
              + ANNOTATION.get(tag)
              + ", so -Dgroups="
              + tag
              + " selects it and -DexcludedGroups="
              + tag
              + " leaves it out");
    }
  }

  /** Programs whose tests carry a tag of their own besides {@code tools}, by program name. */
  static final Map<String, String> COSTLY =
      Map.of(
          "terraform", TerraformTest.TAG,
          "ansible-lint", LintTest.TAG,
          "chroot", ChrootTest.TAG,
          "unshare", ChrootTest.TAG,
          "mount", ChrootTest.TAG,
          "make-test-root", ChrootTest.TAG);

  private static final Map<String, String> ANNOTATION =
      Map.of(
          TerraformTest.TAG,
          "TerraformTest",
          LintTest.TAG,
          "LintTest",
          ChrootTest.TAG,
          "ChrootTest");

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  /** No colours, no prompts, no retry files, deterministic output for assertions. */
  private static Map<String, String> quietEnv() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("NO_COLOR", "1");
    env.put("ANSIBLE_NOCOLOR", "1");
    env.put("ANSIBLE_FORCE_COLOR", "0");
    env.put("ANSIBLE_RETRY_FILES_ENABLED", "0");
    env.put("ANSIBLE_HOST_KEY_CHECKING", "0");
    env.put("ANSIBLE_STDOUT_CALLBACK", "default");
    env.put("PY_COLORS", "0");
    return env;
  }

  /** Path of the committed hcl2json CLI wrapper; fails if the npm install is missing. */
  public static Path hcl2json() {
    Path bin = repoRoot().resolve("tools/hcl2json/hcl2json");
    Path lib = repoRoot().resolve("tools/hcl2json/node_modules/@cdktf/hcl2json/package.json");
    if (!Files.isExecutable(bin) || !Files.isRegularFile(lib)) {
      fail("hcl2json is not installed: run scripts/install-test-deps");
    }
    return bin;
  }

  /** Fails the test unless it runs as root: debootstrap and chroot need it. */
  public static void requireRoot() throws IOException, InterruptedException {
    Result id = run(Path.of("/"), Duration.ofSeconds(10), Map.of(), "id", "-u");
    if (!id.output().strip().equals("0")) {
      fail("chroot playbook tests must run as root (uid is " + id.output().strip() + ")");
    }
  }

  private static Path template;

  /**
   * Returns the shared template root, building it on first use (about 45 s, then cached under
   * GPUGEN_TEST_ROOT_CACHE). Never run playbooks against it directly: mount a {@link TestRoot} over
   * it.
   */
  public static synchronized Path testRootTemplate() throws IOException, InterruptedException {
    if (template == null) {
      requireRoot();
      Path script = repoRoot().resolve("scripts/make-test-root");
      Result r = run(repoRoot(), Duration.ofMinutes(10), Map.of(), script.toString()).assertOk();
      List<String> lines = r.output().strip().lines().toList();
      template = Path.of(lines.get(lines.size() - 1));
    }
    return template;
  }

  /** Writes a one-host inventory that reaches {@code root} through the chroot connection. */
  public static Path chrootInventory(Path root, Path inventoryFile) throws IOException {
    Files.writeString(
        inventoryFile,
        "testhost ansible_connection=community.general.chroot ansible_host=" + root + "\n");
    return inventoryFile;
  }

  private static final Pattern RECAP =
      Pattern.compile("^(\\S+)[ \\t]+:[ \\t]+((?:\\w+=\\d+[ \\t]*)+)$", Pattern.MULTILINE);

  /**
   * Parses the PLAY RECAP of ansible-playbook output: counts (ok, changed, failed...) of a host.
   */
  public static Map<String, Integer> recap(String output, String host) {
    int start = output.lastIndexOf("PLAY RECAP");
    if (start < 0) {
      fail("no PLAY RECAP in ansible-playbook output:\n" + output);
    }
    Matcher m = RECAP.matcher(output.substring(start));
    while (m.find()) {
      if (m.group(1).equals(host)) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String kv : m.group(2).trim().split("\\s+")) {
          String[] parts = kv.split("=");
          counts.put(parts[0], Integer.parseInt(parts[1]));
        }
        return counts;
      }
    }
    fail("host " + host + " not in PLAY RECAP:\n" + output.substring(start));
    return Map.of();
  }

  /** The command line of ansible-playbook with an inventory, as a list to extend. */
  public static List<String> ansiblePlaybook(Path inventory, Path playbook, String... extra) {
    List<String> cmd = new ArrayList<>(List.of("ansible-playbook", "-i", inventory.toString()));
    cmd.addAll(List.of(extra));
    cmd.add(playbook.toString());
    return cmd;
  }
}
