package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Golden;
import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pull mode, for real: the rendered user-data script of the aws-pull golden runs, unchanged, as
 * root inside an overlay of the debootstrap test root (chroot, in a private mount namespace with
 * the host's /usr bound read-only, which is where ansible-playbook comes from). Stand-ins replace
 * only what a test machine has no access to: the instance metadata service ({@code curl}), S3 and
 * EC2 ({@code aws}, a folder inside the root), and the playbook's GPU and internet steps (a wrapper
 * that adds {@code --skip-tags hardware,network,burn-in} and gpugen_live_host false, then runs the
 * real ansible-playbook). Covered: IMDSv2 token use, the bundle fetch from the versioned prefix,
 * {@code ansible-playbook -c local} of site.yml with the rendered local inventory, the per-boot
 * copy and its removal, the report object and the tag call; on a failing run, a failed report and
 * tag and a non-zero exit; from Git, the pinned tag (not a later commit) of a repository inside the
 * root, through the real git with the example URL mapped to it. Not covered: installing Ansible and
 * the AWS CLI, a real remote, the reboot.
 */
@ChrootTest
class PullBootstrapTest {
  private static final Path STAND_INS = Golden.repo().resolve("src/test/resources/pull-stand-ins");
  private static final String BUCKET = "fleet-ckpt-example";
  private static final String INSTANCE = "i-0123456789abcdef0";

  /** IAM's aws:userid of the instance profile's session, as the aws stand-in reports it. */
  private static final String CALLER = "AROAEXAMPLEROLEID12345:" + INSTANCE;

  @TempDir Path tmp;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void userDataConfiguresTheNodeAndReportsPassed() throws Exception {
    RealTools.requireRoot();
    RenderedCase rendered = RenderedCase.render("aws-pull", tmp.resolve("render"));
    Path out = rendered.ansible().getParent();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    String hostMapCount = Files.readString(Path.of("/proc/sys/vm/max_map_count"));
    try {
      JsonNode tfvars = json(out.resolve("terraform/terraform.tfvars.json"));
      String prefix = tfvars.get("pull_bundle_prefix").asText();
      upload(rendered.ansible(), root.resolve("stub-s3/" + BUCKET + "/" + prefix));

      RealTools.Result r = boot(root, out.resolve("terraform/user-data-h100.sh"));
      String log = log(root);
      assertEquals(0, r.exitCode(), r.output() + log);

      List<String> calls = Files.readAllLines(root.resolve("stub-s3/calls.log"));
      // IMDSv2: the token first, then metadata only with it.
      assertEquals("curl PUT http://169.254.169.254/latest/api/token token=", calls.get(0));
      assertTrue(
          calls.stream()
              .filter(c -> c.startsWith("curl GET"))
              .allMatch(c -> c.endsWith(" token=stub-token-1")),
          calls::toString);
      assertTrue(
          calls.contains(
              "aws s3 cp --recursive --only-show-errors --region us-east-1 s3://"
                  + BUCKET
                  + "/"
                  + prefix
                  + "/ /var/lib/gpugen/pull/bundle/"),
          calls::toString);
      assertTrue(
          calls.contains(
              "ansible-playbook -c local -i pull-inventory-h100.yml"
                  + " --skip-tags kubernetes,helm,reboot -e @/var/lib/gpugen/pull/lustre-vars.json"
                  + " site.yml"),
          calls::toString);
      assertEquals(
          "aws ec2 create-tags --region us-east-1 --resources "
              + INSTANCE
              + " --tags Key=gpugen:validation,Value=passed",
          calls.get(calls.size() - 1));

      // The node configured itself: the same files a push run writes, the baseline of its pool.
      assertTrue(
          Files.readString(root.resolve("etc/nccl.conf")).contains("NCCL_DEBUG=WARN"),
          "nccl.conf written");
      // storage.lustre: the address from the node's own tags in instance metadata, in fstab.
      assertTrue(
          calls.contains(
              "curl GET http://169.254.169.254/latest/meta-data/tags/instance/gpugen:lustre-dns-name"
                  + " token=stub-token-1"),
          calls::toString);
      assertTrue(
          Files.readAllLines(root.resolve("etc/fstab"))
              .contains(
                  "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com@tcp:/abcdef12 /fsx lustre"
                      + " defaults,relatime,flock,_netdev,x-systemd.automount 0 0"),
          log);
      JsonNode fact = json(root.resolve("etc/ansible/facts.d/gpugen.fact"));
      assertEquals("h100", fact.get("pool").asText());
      assertEquals("fleet", fact.get("cluster").asText());
      assertTrue(
          Files.readString(root.resolve("etc/sysctl.d/90-gpugen.conf"))
              .contains("vm.max_map_count=262144"));

      // The report object, where the node policy lets it write.
      JsonNode report =
          json(root.resolve("stub-s3/" + BUCKET + "/gpugen/fleet/reports/" + CALLER + ".json"));
      assertEquals("passed", report.get("status").asText(), report::toString);
      assertEquals(INSTANCE, report.get("instance_id").asText());
      assertEquals("h100", report.get("pool").asText());
      assertEquals(
          prefix.substring(prefix.lastIndexOf('/') + 1), report.get("spec_sha256").asText());
      assertEquals(0, report.get("exit_code").asInt());
      assertTrue(report.get("validation").get("passed").asBoolean(), report::toString);
      assertTrue(report.has("driver") && report.has("bandwidth_gbps"), report::toString);
      assertTrue(report.get("bundle_verified").asBoolean(), report::toString);
      assertTrue(report.get("git_commit").isNull(), report::toString);

      // Reported once: no per-boot copy left to run again.
      assertFalse(Files.exists(root.resolve("var/lib/cloud/scripts/per-boot/gpugen-pull.sh")));
      // Facts were cached in memory only: the run left no fact cache in the bundle.
      assertFalse(Files.exists(root.resolve("var/lib/gpugen/pull/bundle/.cache")), log);
      // A chroot shares the host's kernel: the run must not have touched it.
      assertEquals(hostMapCount, Files.readString(Path.of("/proc/sys/vm/max_map_count")));
    } finally {
      TestRoot.delete(root);
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aFailingRunIsReportedAsFailed() throws Exception {
    RealTools.requireRoot();
    RenderedCase rendered = RenderedCase.render("aws-pull", tmp.resolve("render"));
    Path out = rendered.ansible().getParent();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try {
      String prefix =
          json(out.resolve("terraform/terraform.tfvars.json")).get("pull_bundle_prefix").asText();
      upload(rendered.ansible(), root.resolve("stub-s3/" + BUCKET + "/" + prefix));
      Files.writeString(root.resolve("stub-s3/fail"), "");
      // This spec version already rebooted once: the script must report, not reboot again.
      String sha = prefix.substring(prefix.lastIndexOf('/') + 1);
      Files.createDirectories(root.resolve("var/lib/gpugen/pull"));
      Files.writeString(root.resolve("var/lib/gpugen/pull/rebooted-" + sha), "");

      RealTools.Result r = boot(root, out.resolve("terraform/user-data-l4_infer.sh"));
      assertNotEquals(0, r.exitCode(), r.output());
      JsonNode report =
          json(root.resolve("stub-s3/" + BUCKET + "/gpugen/fleet/reports/" + CALLER + ".json"));
      assertEquals("failed", report.get("status").asText(), report::toString);
      assertEquals("l4-infer", report.get("pool").asText());
      assertEquals(2, report.get("exit_code").asInt());
      List<String> calls = Files.readAllLines(root.resolve("stub-s3/calls.log"));
      assertEquals(
          "aws ec2 create-tags --region us-east-1 --resources "
              + INSTANCE
              + " --tags Key=gpugen:validation,Value=failed",
          calls.get(calls.size() - 1));
      assertFalse(Files.exists(root.resolve("var/lib/cloud/scripts/per-boot/gpugen-pull.sh")));
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * A node whose instance metadata has no Lustre tags (instance_metadata_tags off, or the tags
   * removed) cannot mount the file system: the run fails with what is missing, the node reports
   * failed and tags itself so; nothing is skipped silently.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aNodeWithoutItsLustreTagsFailsAndReportsIt() throws Exception {
    RealTools.requireRoot();
    RenderedCase rendered = RenderedCase.render("aws-pull", tmp.resolve("render"));
    Path out = rendered.ansible().getParent();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try {
      String prefix =
          json(out.resolve("terraform/terraform.tfvars.json")).get("pull_bundle_prefix").asText();
      upload(rendered.ansible(), root.resolve("stub-s3/" + BUCKET + "/" + prefix));
      Files.writeString(root.resolve("stub-s3/no-lustre-tags"), "");
      String sha = prefix.substring(prefix.lastIndexOf('/') + 1);
      Files.createDirectories(root.resolve("var/lib/gpugen/pull"));
      Files.writeString(root.resolve("var/lib/gpugen/pull/rebooted-" + sha), "");

      RealTools.Result r = boot(root, out.resolve("terraform/user-data-h100.sh"));
      String log = log(root);
      assertNotEquals(0, r.exitCode(), r.output() + log);
      assertTrue(log.contains("no tag gpugen:lustre-dns-name in the instance metadata"), log);
      assertTrue(log.contains("No usable FSx for Lustre address for localhost"), log);
      JsonNode report =
          json(root.resolve("stub-s3/" + BUCKET + "/gpugen/fleet/reports/" + CALLER + ".json"));
      assertEquals("failed", report.get("status").asText(), report::toString);
      assertNotEquals(0, report.get("exit_code").asInt(), report::toString);
      List<String> calls = Files.readAllLines(root.resolve("stub-s3/calls.log"));
      assertEquals(
          "aws ec2 create-tags --region us-east-1 --resources "
              + INSTANCE
              + " --tags Key=gpugen:validation,Value=failed",
          calls.get(calls.size() - 1));
      assertFalse(
          Files.readString(root.resolve("etc/fstab")).contains("lustre"), "nothing in fstab");
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * A bundle changed after the render (a node with write access to the bucket, anyone who can push
   * to the branch): the node runs nothing of it, does not reboot, and reports the refusal.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aBundleChangedAfterTheRenderIsNeverRun() throws Exception {
    RealTools.requireRoot();
    RenderedCase rendered = RenderedCase.render("aws-pull", tmp.resolve("render"));
    Path out = rendered.ansible().getParent();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try {
      String prefix =
          json(out.resolve("terraform/terraform.tfvars.json")).get("pull_bundle_prefix").asText();
      Path bundle = root.resolve("stub-s3/" + BUCKET + "/" + prefix);
      upload(rendered.ansible(), bundle);
      Files.writeString(
          bundle.resolve("group_vars/all.yml"),
          "gpugen_extra: touch /PWNED\n",
          java.nio.file.StandardOpenOption.APPEND);

      RealTools.Result r = boot(root, out.resolve("terraform/user-data-h100.sh"));
      assertNotEquals(0, r.exitCode(), r.output());
      assertTrue(
          log(root).contains("the bundle is not the one this node was launched with"), log(root));
      List<String> calls = Files.readAllLines(root.resolve("stub-s3/calls.log"));
      assertTrue(calls.stream().noneMatch(c -> c.startsWith("ansible-playbook")), calls::toString);
      JsonNode report =
          json(root.resolve("stub-s3/" + BUCKET + "/gpugen/fleet/reports/" + CALLER + ".json"));
      assertEquals("failed", report.get("status").asText(), report::toString);
      assertFalse(report.get("bundle_verified").asBoolean(), report::toString);
      assertEquals(
          prefix.substring(prefix.lastIndexOf('/') + 1),
          report.get("spec_sha256").asText(),
          report::toString);
      assertFalse(
          Files.exists(
              root.resolve(
                  "var/lib/gpugen/pull/rebooted-" + prefix.substring(prefix.lastIndexOf('/') + 1))),
          "no reboot for a refused bundle");
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * A fact cache planted in the bundle (whoever can write the bundle prefix or push to the branch):
   * Ansible reads .cache/facts/localhost (ansible.cfg's jsonfile cache) as the host's facts, which
   * outrank group_vars, so its prerequisites_sysctl or driver repository would run as root. The
   * digest covers every file, dotfiles included: the node runs nothing of it.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aFactCachePlantedInTheBundleIsNeverRun() throws Exception {
    RealTools.requireRoot();
    RenderedCase rendered = RenderedCase.render("aws-pull", tmp.resolve("render"));
    Path out = rendered.ansible().getParent();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try {
      String prefix =
          json(out.resolve("terraform/terraform.tfvars.json")).get("pull_bundle_prefix").asText();
      Path bundle = root.resolve("stub-s3/" + BUCKET + "/" + prefix);
      upload(rendered.ansible(), bundle);
      Path planted = Files.createDirectories(bundle.resolve(".cache/facts")).resolve("localhost");
      Files.writeString(
          planted,
          "{\"prerequisites_sysctl\": {\"kernel.modprobe\": \"/tmp/pwn\"},"
              + " \"nvidia_driver_repo_base_url\": \"http://attacker.example/cuda\"}\n");

      RealTools.Result r = boot(root, out.resolve("terraform/user-data-h100.sh"));
      String log = log(root);
      assertNotEquals(0, r.exitCode(), r.output() + log);
      assertTrue(log.contains("the bundle is not the one this node was launched with"), log);
      List<String> calls = Files.readAllLines(root.resolve("stub-s3/calls.log"));
      assertTrue(calls.stream().noneMatch(c -> c.startsWith("ansible-playbook")), calls::toString);
      JsonNode report =
          json(root.resolve("stub-s3/" + BUCKET + "/gpugen/fleet/reports/" + CALLER + ".json"));
      assertEquals("failed", report.get("status").asText(), report::toString);
      assertFalse(report.get("bundle_verified").asBoolean(), report::toString);
      assertFalse(Files.exists(root.resolve("etc/sysctl.d/90-gpugen.conf")), "nothing configured");
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * A host_vars file whose name has a line feed: a digest over a line-separated listing would see
   * two names that do not exist, and Ansible would load the file (host_vars/localhost/ is the
   * node's own variables, which outrank group_vars). The node reads names NUL-separated and refuses
   * any outside [A-Za-z0-9._/-]: nothing of the bundle runs.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aFileWithALineFeedInItsNameIsNeverRun() throws Exception {
    assertRefused(
        bundle -> {
          Path dir = Files.createDirectories(bundle.resolve("host_vars/localhost"));
          Files.writeString(
              dir.resolve("x\nA.yml"),
              "prerequisites_sysctl: {kernel.core_pattern: \"|/tmp/evil %p\"}\n");
        },
        "refused name in the bundle: $'host_vars/localhost/x\\nA.yml'");
  }

  /**
   * An empty folder group_vars/all/ beside the rendered group_vars/all.yml: Ansible would read the
   * folder instead of the file, and every spec value of all.yml would silently fall back to the
   * roles' defaults. The listing the digest covers has every folder as well as every file.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void anAddedEmptyFolderIsNeverRun() throws Exception {
    assertRefused(
        bundle -> Files.createDirectories(bundle.resolve("group_vars/all")),
        "the bundle is not the one this node was launched with");
  }

  /** A test's change to the uploaded bundle. */
  private interface Plant {
    void into(Path bundle) throws Exception;
  }

  /**
   * Boots a node of pool h100 on the aws-pull render with {@code plant} applied to the uploaded
   * bundle, and asserts the node ran nothing of it, did not reboot, and reported the refusal with
   * {@code why} in its log.
   */
  private void assertRefused(Plant plant, String why) throws Exception {
    RealTools.requireRoot();
    RenderedCase rendered = RenderedCase.render("aws-pull", tmp.resolve("render"));
    Path out = rendered.ansible().getParent();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try {
      String prefix =
          json(out.resolve("terraform/terraform.tfvars.json")).get("pull_bundle_prefix").asText();
      Path bundle = root.resolve("stub-s3/" + BUCKET + "/" + prefix);
      upload(rendered.ansible(), bundle);
      plant.into(bundle);

      RealTools.Result r = boot(root, out.resolve("terraform/user-data-h100.sh"));
      String log = log(root);
      Path sysctl = root.resolve("etc/sysctl.d/90-gpugen.conf");
      String configured =
          Files.exists(sysctl) ? "\n--- ran; sysctl ---\n" + Files.readString(sysctl) : "";
      assertTrue(log.contains(why), log + configured);
      List<String> calls = Files.readAllLines(root.resolve("stub-s3/calls.log"));
      assertTrue(
          calls.stream().noneMatch(c -> c.startsWith("ansible-playbook")), calls + configured);
      assertFalse(Files.exists(sysctl), "nothing configured" + configured);
      assertNotEquals(0, r.exitCode(), r.output() + log);
      JsonNode report =
          json(root.resolve("stub-s3/" + BUCKET + "/gpugen/fleet/reports/" + CALLER + ".json"));
      assertEquals("failed", report.get("status").asText(), report::toString);
      assertFalse(report.get("bundle_verified").asBoolean(), report::toString);
      String sha = prefix.substring(prefix.lastIndexOf('/') + 1);
      assertFalse(
          Files.exists(root.resolve("var/lib/gpugen/pull/rebooted-" + sha)),
          "no reboot for a refused bundle");
    } finally {
      TestRoot.delete(root);
    }
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void gitSourceChecksOutThePinnedTagAndReports() throws Exception {
    RealTools.requireRoot();
    Path dir = Files.createDirectories(tmp.resolve("render"));
    String yaml =
        Files.readString(RenderedCase.spec("aws-pull"))
            .replace(
                "    source: s3\n",
                "    source: git\n"
                    + "    gitUrl: https://git.example.com/org/cluster-config.git\n"
                    + "    gitRef: v1.0.0\n"
                    + "    gitPath: clusters/fleet/ansible\n");
    assertTrue(yaml.contains("gitRef: v1.0.0"), yaml);
    Path spec = Files.writeString(dir.resolve("spec.yaml"), yaml);
    Path out = dir.resolve("out");
    dev.gpugen.Cli cli = dev.gpugen.Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(0, cli.exit(), cli::toString);
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try {
      // The repository: the render at tag v1.0.0, then a later commit the nodes must not see.
      Path repo = root.resolve("stub-git/cluster-config");
      upload(out.resolve("ansible"), repo.resolve("clusters/fleet/ansible"));
      git(repo, "init", "-q", "-b", "main");
      git(repo, "add", "-A");
      git(repo, "commit", "-q", "-m", "render");
      git(repo, "tag", "v1.0.0");
      Files.writeString(repo.resolve("clusters/fleet/ansible/site.yml"), "not: [a playbook\n");
      git(repo, "commit", "-q", "-a", "-m", "broken later");

      RealTools.Result r = boot(root, out.resolve("terraform/user-data-h100.sh"));
      assertEquals(0, r.exitCode(), r.output() + log(root));
      List<String> calls = Files.readAllLines(root.resolve("stub-s3/calls.log"));
      assertTrue(
          calls.contains(
              "git -C /var/lib/gpugen/pull/checkout fetch -q --depth 1 --"
                  + " https://git.example.com/org/cluster-config.git v1.0.0"),
          calls::toString);
      assertTrue(calls.stream().noneMatch(c -> c.contains("--recursive")), calls::toString);
      JsonNode report =
          json(root.resolve("stub-s3/" + BUCKET + "/gpugen/fleet/reports/" + CALLER + ".json"));
      assertEquals("passed", report.get("status").asText(), report::toString);
      assertEquals(
          "aws ec2 create-tags --region us-east-1 --resources "
              + INSTANCE
              + " --tags Key=gpugen:validation,Value=passed",
          calls.get(calls.size() - 1));
      assertEquals(
          "h100", json(root.resolve("etc/ansible/facts.d/gpugen.fact")).get("pool").asText());
      // The commit the tag named, as the node resolved it (a branch would move; the report says
      // what ran).
      String tagged =
          RealTools.run(
                  Path.of("/"),
                  Duration.ofMinutes(1),
                  Map.of(),
                  "git",
                  "-C",
                  repo.toString(),
                  "rev-parse",
                  "v1.0.0^{commit}")
              .assertOk()
              .output()
              .strip();
      assertEquals(tagged, report.get("git_commit").asText(), report::toString);
      assertTrue(report.get("bundle_verified").asBoolean(), report::toString);
    } finally {
      TestRoot.delete(root);
    }
  }

  private static void git(Path repo, String... args) throws Exception {
    List<String> cmd =
        new java.util.ArrayList<>(
            List.of(
                "git",
                "-c",
                "user.name=gpugen test",
                "-c",
                "user.email=test@example.com",
                "-C",
                repo.toString()));
    cmd.addAll(List.of(args));
    RealTools.run(Path.of("/"), Duration.ofMinutes(1), Map.of(), cmd).assertOk();
  }

  /** The S3 stand-in: the rendered ansible/ folder under the bundle prefix in the bucket. */
  private static void upload(Path ansible, Path prefix) throws Exception {
    Files.createDirectories(prefix);
    RealTools.run(
            Path.of("/"),
            Duration.ofMinutes(1),
            Map.of(),
            "cp",
            "-a",
            ansible + "/.",
            prefix.toString())
        .assertOk();
  }

  /**
   * Runs the user-data script as cloud-init would (root, /bin/bash, from a file) inside the chroot,
   * with the stand-ins first on PATH and the host's /usr bound read-only in a private mount
   * namespace (gone when the command ends).
   */
  private static RealTools.Result boot(Path root, Path userData) throws Exception {
    Path stubs = Files.createDirectories(root.resolve("opt/stubs"));
    try (Stream<Path> s = Files.list(STAND_INS)) {
      for (Path p : s.toList()) {
        Path to = stubs.resolve(p.getFileName());
        Files.copy(p, to);
        Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
      }
    }
    Files.createDirectories(root.resolve("stub-s3"));
    Files.copy(userData, root.resolve("tmp/user-data.sh"));
    String inside =
        "mount --bind -o ro /usr \"$1/usr\" && mount -t proc proc \"$1/proc\""
            + " && exec env -i PATH=/opt/stubs:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8"
            + " chroot \"$1\" /bin/bash /tmp/user-data.sh";
    return RealTools.run(
        Path.of("/"),
        Duration.ofMinutes(8),
        Map.of(),
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        inside,
        "sh",
        root.toString());
  }

  private static String log(Path root) throws Exception {
    Path log = root.resolve("var/lib/gpugen/pull/pull.log");
    return Files.exists(log) ? "\n--- pull.log ---\n" + Files.readString(log) : "";
  }

  private static JsonNode json(Path file) throws Exception {
    return new ObjectMapper().readTree(file.toFile());
  }
}
