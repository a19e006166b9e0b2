package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the real-tool harness works on this machine, with the same calls the generator tests make:
 * HCL parsing, syntax check, production lint, an idempotent chroot playbook run, pre-commit.
 */
@RealToolsTest
class HarnessSelfTest {
  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final Path SELFTEST =
      RealTools.repoRoot().resolve("src/test/resources/harness/chroot-selftest.yml");

  @TempDir Path tmp;

  @Test
  void hcl2jsonParsesValidHclAndRejectsInvalidHcl() throws Exception {
    Path ok = tmp.resolve("ok.tf");
    Files.writeString(
        ok, "resource \"aws_instance\" \"gpu\" {\n  instance_type = \"p5.48xlarge\"\n}\n");
    RealTools.Result parsed =
        RealTools.run(tmp, MINUTE, Map.of(), RealTools.hcl2json().toString(), ok.toString())
            .assertOk();
    assertTrue(parsed.output().contains("\"instance_type\": \"p5.48xlarge\""), parsed.output());

    Path bad = tmp.resolve("bad.tf");
    Files.writeString(bad, "resource \"a\" \"b\" {\n  x = \n}\n");
    RealTools.Result rejected =
        RealTools.run(tmp, MINUTE, Map.of(), RealTools.hcl2json().toString(), bad.toString());
    assertEquals(1, rejected.exitCode(), rejected.output());
    assertTrue(rejected.output().contains("bad.tf:2"), rejected.output());
  }

  @LintTest
  @Test
  void selftestPlaybookPassesSyntaxCheckAndProductionLint() throws Exception {
    RealTools.run(
            tmp,
            MINUTE,
            Map.of(),
            "ansible-playbook",
            "--syntax-check",
            "-i",
            "localhost,",
            SELFTEST.toString())
        .assertOk();
    // --offline: no Galaxy installs or schema downloads; the lint must not touch the network.
    Path copy = Files.copy(SELFTEST, tmp.resolve("site.yml"));
    RealTools.Result lint =
        RealTools.run(
                tmp,
                MINUTE,
                Map.of(),
                "ansible-lint",
                "--offline",
                "--nocolor",
                "--profile",
                "production",
                copy.toString())
            .assertOk();
    assertTrue(lint.output().contains("Passed with production profile"), lint.output());
  }

  @ChrootTest
  @Test
  void chrootPlaybookRunConvergesThenIsIdempotent() throws Exception {
    String hostSwappiness = Files.readString(Path.of("/proc/sys/vm/swappiness"));
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try {
      Path inventory = RealTools.chrootInventory(root, tmp.resolve("inventory.ini"));
      var cmd = RealTools.ansiblePlaybook(inventory, SELFTEST);
      Duration timeout = Duration.ofMinutes(5);

      RealTools.Result first = RealTools.run(tmp, timeout, Map.of(), cmd).assertOk();
      Map<String, Integer> firstRecap = RealTools.recap(first.output(), "testhost");
      assertEquals(0, firstRecap.get("failed"), first.output());
      assertTrue(firstRecap.get("changed") > 0, first.output());

      RealTools.Result second = RealTools.run(tmp, timeout, Map.of(), cmd).assertOk();
      assertEquals(0, RealTools.recap(second.output(), "testhost").get("changed"), second.output());

      assertTrue(Files.isRegularFile(root.resolve("usr/bin/hello")));
      assertEquals(
          "vm.swappiness=10\n",
          Files.readString(root.resolve("etc/sysctl.d/90-gpugen-selftest.conf")));
      assertTrue(
          Files.isSymbolicLink(
              root.resolve("etc/systemd/system/multi-user.target.wants/gpugen-selftest.service")));
      // The chroot shares the host kernel: the run must not have changed it.
      assertEquals(hostSwappiness, Files.readString(Path.of("/proc/sys/vm/swappiness")));
    } finally {
      TestRoot.delete(root);
    }
  }

  @Test
  void preCommitTryRepoRunsALocalHook() throws Exception {
    Path hooks = Files.createDirectories(tmp.resolve("hooks"));
    // pre-commit 3.0.4 (Debian 12) knows 'system'/'script', not 4.4's 'unsupported' alias.
    Files.writeString(
        hooks.resolve(".pre-commit-hooks.yaml"),
        "- id: hello\n  name: hello\n  entry: echo hook-ran\n  language: system\n"
            + "  pass_filenames: false\n  always_run: true\n");
    git(hooks, "init", "-q");
    git(hooks, "add", "-A");
    git(hooks, "commit", "-qm", "hooks");
    Path project = Files.createDirectories(tmp.resolve("project"));
    git(project, "init", "-q");
    Files.writeString(project.resolve("f.txt"), "x\n");
    git(project, "add", "-A");
    RealTools.Result r =
        RealTools.run(
                project,
                MINUTE,
                Map.of("PRE_COMMIT_HOME", tmp.resolve("pc-home").toString()),
                "pre-commit",
                "try-repo",
                hooks.toString(),
                "hello",
                "--all-files",
                "--verbose")
            .assertOk();
    assertTrue(r.output().contains("hook-ran"), r.output());
  }

  private void git(Path dir, String... args) throws Exception {
    var cmd = new java.util.ArrayList<>(java.util.List.of("git", "-c", "user.name=t"));
    cmd.addAll(java.util.List.of("-c", "user.email=t@localhost", "-c", "init.defaultBranch=main"));
    cmd.addAll(java.util.List.of(args));
    RealTools.run(dir, MINUTE, Map.of(), cmd).assertOk();
  }
}
