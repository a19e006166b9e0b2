package dev.gpugen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hooks of .pre-commit-hooks.yaml, run by the real pre-commit (Debian's 3.0.4) against a
 * throwaway Git repository that keeps a spec and its committed render, the way a team uses them.
 * Runs after {@code package}: the hook launcher is pointed at the built jar through GPUGEN_JAR, so
 * no hook run builds anything.
 */
@RealToolsTest
class PreCommitHookIT {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final Path ROOT = RealTools.repoRoot();
  private static final String SPEC = "cluster.yaml";

  @TempDir Path tmp;
  private Path hooks;
  private Path project;
  private Map<String, String> env;

  @BeforeEach
  void repositories() throws Exception {
    Path jar = ROOT.resolve("target/gpugen.jar");
    if (!Files.isRegularFile(jar)) {
      fail(jar + " is missing: this test runs in mvn verify, after package");
    }
    RealTools.Result which =
        RealTools.run(tmp, TIMEOUT, Map.of(), "sh", "-c", "command -v pre-commit");
    if (which.exitCode() != 0) {
      fail("pre-commit is not installed: run scripts/install-test-deps");
    }
    env =
        Map.of(
            "PRE_COMMIT_HOME", tmp.resolve("pre-commit-home").toString(),
            "GPUGEN_JAR", jar.toString());

    // The hook repository: exactly the files a pre-commit checkout of gpugen needs at run time.
    hooks = Files.createDirectories(tmp.resolve("gpugen"));
    for (String f : List.of(".pre-commit-hooks.yaml", "gpugen", "hooks/gpugen-hook")) {
      Path to = hooks.resolve(f);
      Files.createDirectories(to.getParent());
      Files.copy(ROOT.resolve(f), to, StandardCopyOption.COPY_ATTRIBUTES);
    }
    git(hooks, "init", "-q");
    git(hooks, "add", "-A");
    git(hooks, "commit", "-qm", "hooks");

    // The team's repository: a spec, its render (base and dev), and a YAML file that is no spec.
    project = Files.createDirectories(tmp.resolve("project"));
    git(project, "init", "-q");
    Files.copy(ROOT.resolve("examples/aws-h100/cluster.yaml"), project.resolve(SPEC));
    Files.createDirectories(project.resolve("eks"));
    Files.writeString(
        project.resolve("eks/cluster.yaml"),
        "apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: other}\n");
    gpugen("render", "--all-envs", SPEC).assertOk();
    git(project, "add", "-A");
  }

  @Test
  void cleanSpecAndCurrentRenderPassBothHooks() throws Exception {
    RealTools.Result r = tryRepo("--all-files");
    assertEquals(0, r.exitCode(), r.output());
    assertEquals(2, count(r.output(), "Passed"), r.output());
  }

  @Test
  void brokenSpecFailsValidateWithThePositionedDiagnostic() throws Exception {
    edit("    instanceType: p5.48xlarge", "    instanceTyp: p5.48xlarge");
    RealTools.Result r = tryRepo("gpugen-validate");
    assertEquals(1, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .contains(
                "cluster.yaml:28:5: error[spec-unknown-key]: pools[0].instanceTyp is not a known"
                    + " key; did you mean instanceType?"),
        r.output());
    assertTrue(r.output().contains("      |     ^"), "the caret under the key\n" + r.output());
    assertFalse(r.output().contains("eks/cluster.yaml"), "not a gpugen spec\n" + r.output());
  }

  @Test
  void editWithoutRenderFailsRenderCheckWithTheDiffAndRenderingFixesIt() throws Exception {
    edit("    count: 16", "    count: 12");
    RealTools.Result stale = tryRepo("gpugen-render-check");
    assertEquals(1, stale.exitCode(), stale.output());
    // The diff shows the committed nodes 12 to 15 going and the spec's fingerprint changing.
    assertTrue(stale.output().matches("(?s).*\n-[^\n]*\\b15\\b.*"), stale.output());
    assertTrue(stale.output().contains("\n+gpugen_spec_sha256: "), stale.output());
    assertTrue(stale.output().contains("\n+++ b/"), stale.output());
    assertTrue(
        stale
            .output()
            .contains(
                "roles-generated/h100-training is stale against cluster.yaml; run: gpugen render"
                    + " cluster.yaml"),
        stale.output());
    // The dev overlay pins its own count, so its render is still current.
    assertTrue(
        stale.output().contains("roles-generated/h100-training-dev is up to date"), stale.output());

    gpugen("render", "--all-envs", SPEC).assertOk();
    git(project, "add", "-A");
    RealTools.Result fixed = tryRepo("--all-files");
    assertEquals(0, fixed.exitCode(), fixed.output());
    assertEquals(2, count(fixed.output(), "Passed"), fixed.output());
  }

  @Test
  void handEditedRenderFailsRenderCheck() throws Exception {
    Path render = project.resolve("roles-generated/h100-training");
    Path file;
    try (var files = Files.walk(render)) {
      file =
          files
              .filter(f -> Files.isRegularFile(f) && !f.getFileName().toString().startsWith("."))
              .sorted()
              .findFirst()
              .orElseThrow();
    }
    Files.writeString(file, Files.readString(file) + "# a hand edit\n");
    git(project, "add", "-A");
    RealTools.Result r = tryRepo("gpugen-render-check");
    assertEquals(1, r.exitCode(), r.output());
    assertTrue(r.output().contains("\n-# a hand edit\n"), r.output());
    assertTrue(r.output().contains("roles-generated/h100-training is stale"), r.output());
  }

  /**
   * docs/ci.md's `.pre-commit-config.yaml`, installed as a Git hook: a commit of a current spec
   * goes through, a commit of a broken one is refused.
   */
  @Test
  void readmeConfigGuardsARealCommit() throws Exception {
    String head = git(hooks, "rev-parse", "HEAD").output().strip();
    String config =
        docsPreCommitConfig()
            .replaceAll("repo: \\S+", "repo: " + hooks)
            .replaceAll("rev: \\S+", "rev: " + head);
    Files.writeString(project.resolve(".pre-commit-config.yaml"), config);
    RealTools.run(project, TIMEOUT, env, "pre-commit", "install").assertOk();
    git(project, "add", "-A");
    RealTools.Result ok = commit("a GPU cluster");
    assertEquals(0, ok.exitCode(), ok.output());
    assertEquals(2, count(ok.output(), "Passed"), ok.output());

    edit("    market: spot", "    market: spots");
    RealTools.Result refused = commit("a typo");
    assertEquals(1, refused.exitCode(), refused.output());
    assertTrue(refused.output().contains("error[spec-enum]"), refused.output());
    // Both hooks run on the commit; the finding is printed once, by the validate hook.
    assertEquals(1, count(refused.output(), "error[spec-enum]"), refused.output());
    assertTrue(
        refused.output().contains(": spec invalid (1 error, 0 warnings), see gpugen-validate\n"),
        refused.output());
  }

  private static String docsPreCommitConfig() throws Exception {
    String readme = Files.readString(ROOT.resolve("docs/ci.md"));
    Matcher m =
        Pattern.compile("```yaml\n(# \\.pre-commit-config\\.yaml\n.*?)```", Pattern.DOTALL)
            .matcher(readme);
    assertTrue(m.find(), "docs/ci.md has a ```yaml block starting with # .pre-commit-config.yaml");
    return m.group(1);
  }

  private void edit(String from, String to) throws Exception {
    Path spec = project.resolve(SPEC);
    String text = Files.readString(spec);
    assertTrue(text.contains(from), from);
    Files.writeString(spec, text.replace(from, to));
    git(project, "add", "-A");
  }

  private RealTools.Result tryRepo(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("pre-commit", "try-repo", hooks.toString()));
    cmd.addAll(List.of(args));
    return RealTools.run(project, TIMEOUT, env, cmd);
  }

  private RealTools.Result gpugen(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(hooks.resolve("gpugen").toString()));
    cmd.addAll(List.of(args));
    return RealTools.run(project, TIMEOUT, env, cmd);
  }

  private RealTools.Result commit(String message) throws Exception {
    return RealTools.run(project, TIMEOUT, env, gitCommand("commit", "-qm", message));
  }

  private RealTools.Result git(Path dir, String... args) throws Exception {
    return RealTools.run(dir, TIMEOUT, env, gitCommand(args)).assertOk();
  }

  private static List<String> gitCommand(String... args) {
    List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.name=t"));
    cmd.addAll(List.of("-c", "user.email=t@localhost", "-c", "init.defaultBranch=main"));
    cmd.addAll(List.of(args));
    return cmd;
  }

  private static int count(String text, String word) {
    return text.split(Pattern.quote(word), -1).length - 1;
  }
}
