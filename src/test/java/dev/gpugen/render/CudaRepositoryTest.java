package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Play 01 installs for real, in a Debian 12 root through the chroot connection, from a stand-in of
 * NVIDIA's CUDA repository on 127.0.0.1 ({@link AptRepositoryStandIn}) that holds several versions
 * of every driver package, the way NVIDIA's repository keeps every release of a branch: the spec's
 * exact version is installed (not the newest, not the oldest) for the driver, Fabric Manager and
 * NSCQ under the names NVIDIA's repository uses for the branch (read from
 * src/test/resources/upstream/cuda-repository-fabric-packages.txt, copied from NVIDIA's driver
 * container with its source, Provides included), the pins and holds keep a later apt upgrade from
 * moving them, and from branch 590 the branch's pinning package is installed before the driver.
 * Nothing comes from anywhere else: the root's Debian sources are removed first, so a package name
 * that exists only in Ubuntu's archive (nvidia-driver-580-server-open, the name Canonical uses)
 * fails the run.
 */
@ChrootTest
class CudaRepositoryTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);

  @TempDir Path tmp;

  /** A driver package family at three versions of one branch (and dependencies at the same). */
  private static List<AptRepositoryStandIn.Deb> family(
      String name, String dependency, List<String> versions) {
    List<AptRepositoryStandIn.Deb> out = new ArrayList<>();
    for (String v : versions) {
      out.add(
          new AptRepositoryStandIn.Deb(
              name,
              v,
              "amd64",
              dependency.isEmpty() ? "" : dependency + " (= " + v + ")",
              Map.of()));
    }
    return out;
  }

  private static AptRepositoryStandIn.Deb plain(String name, String version) {
    return new AptRepositoryStandIn.Deb(name, version, "amd64", "", Map.of());
  }

  /**
   * The reference spec (p5.48xlarge: 8x H100 on NVSwitch, open kernel modules, driver 580.95.05,
   * CUDA 12.8): branch 580's driver names carry the branch, its Fabric Manager and NSCQ names do
   * not; the repository also has the 580 release before and the one after the spec's.
   */
  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void branch580InstallsTheExactVersionFromNvidiasRepositoryAndKeepsIt() throws Exception {
    List<String> versions = List.of("580.82.07-1", "580.95.05-1", "580.105.08-1");
    List<AptRepositoryStandIn.Deb> debs = new ArrayList<>();
    debs.addAll(family("nvidia-open-580", "libnvidia-compute-580", versions));
    debs.addAll(family("libnvidia-compute-580", "", versions));
    debs.addAll(family("cuda-drivers-580", "libnvidia-compute-580", versions));
    // Fabric Manager and NSCQ as NVIDIA's repository names them for 580: nvidia-fabricmanager,
    // which provides the virtual nvidia-fabricmanager-580
    // (upstream/cuda-repository-fabric-packages.txt).
    debs.addAll(CudaRepositoryNames.debs(580, versions));
    // The newest branch, whose names carry no branch: nothing of it may be installed.
    debs.addAll(family("nvidia-open", "", List.of("590.48.01-1")));
    debs.add(plain("cuda-toolkit-12-8", "12.8.1-1"));
    debs.add(plain("datacenter-gpu-manager-4-cuda13", "1:4.4.2-1"));
    debs.add(plain("datacenter-gpu-manager-4-cuda12", "1:4.4.2-1"));

    Path dir = RenderedCase.render("reference", tmp.resolve("render")).ansible();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try (AptRepositoryStandIn repo = new AptRepositoryStandIn(tmp, "debian12", debs)) {
      onlyTheStandIn(root);
      Map<String, Integer> first = run(dir, root, repo, "first run (580)");
      assertEquals(0, first.get("failed"), first::toString);
      assertTrue(first.get("changed") > 0, first::toString);
      Map<String, Integer> second = run(dir, root, repo, "second run (580)");
      assertEquals(0, second.get("changed"), "second run changed something: " + second);

      Map<String, String> installed = installed(root);
      assertEquals("580.95.05-1", installed.get("nvidia-open-580"), installed::toString);
      assertEquals("580.95.05-1", installed.get("libnvidia-compute-580"), installed::toString);
      for (String fabric : CudaRepositoryNames.names(580)) {
        assertEquals("580.95.05-1", installed.get(fabric), fabric + ": " + installed);
      }
      assertEquals("12.8.1-1", installed.get("cuda-toolkit-12-8"), installed::toString);
      // DCGM for the driver's CUDA major (580 runs CUDA 13), not the toolkit's 12.
      assertEquals(
          "1:4.4.2-1", installed.get("datacenter-gpu-manager-4-cuda13"), installed::toString);
      assertTrue(!installed.containsKey("datacenter-gpu-manager-4-cuda12"), installed::toString);
      assertTrue(!installed.containsKey("nvidia-open"), installed::toString);
      assertTrue(!installed.containsKey("cuda-drivers-580"), "open modules on H100");
      assertEquals(
          List.of("nvidia-fabricmanager", "nvidia-open-580", "libnvidia-nscq", "libnvsdm"),
          held(
              root,
              List.of("nvidia-fabricmanager", "nvidia-open-580", "libnvidia-nscq", "libnvsdm")));
      // The stand-in is as strict as NVIDIA's repository: the branched name is virtual, and apt
      // refuses it at a version (what a role asking for nvidia-fabricmanager-580 would meet).
      RealTools.Result virtual =
          RealTools.run(
              Path.of("/"),
              Duration.ofMinutes(2),
              Map.of(),
              "chroot",
              root.toString(),
              "apt-get",
              "install",
              "-s",
              "nvidia-fabricmanager-580=580.95.05-1");
      assertTrue(virtual.exitCode() != 0, virtual.output());
      assertTrue(
          virtual.output().contains("nvidia-fabricmanager-580 is a virtual package provided by"),
          virtual.output());

      // The pin alone already picks the spec's version over the newer release of the branch.
      String policy = chroot(root, "apt-cache", "policy", "nvidia-open-580");
      assertTrue(policy.contains("Candidate: 580.95.05-1"), policy);
      assertTrue(policy.contains("580.105.08-1"), "the newer release is in the repository");
      // What unattended-upgrades would do: nothing to the driver.
      String upgrade = chroot(root, "apt-get", "-s", "dist-upgrade");
      assertTrue(!upgrade.contains("Inst nvidia") && !upgrade.contains("Inst libnvidia"), upgrade);

      // Everything came from the stand-in, through the cuda-keyring package's signed source.
      assertEquals(List.of(), repo.misses(), repo.requests()::toString);
      assertTrue(repo.requests().contains("GET /compute/cuda/repos/debian12/x86_64/InRelease"));
      assertTrue(
          repo.requests().stream()
              .anyMatch(r -> r.endsWith("/nvidia-open-580_580.95.05-1_amd64.deb")),
          repo.requests()::toString);
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * Branch 590 and later: the packages carry no branch in their names, and NVIDIA's pinning package
   * {@code nvidia-driver-pinning-590} keeps apt on the branch; the role installs it before the
   * driver, as NVIDIA's guide advises, then the exact version.
   */
  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void branch590InstallsThePinningPackageFirstThenTheExactVersion() throws Exception {
    List<String> versions = List.of("590.44.01-1", "590.48.01-1", "595.45.04-1");
    List<AptRepositoryStandIn.Deb> debs = new ArrayList<>();
    debs.addAll(family("nvidia-open", "libnvidia-compute", versions));
    debs.addAll(family("libnvidia-compute", "", versions));
    debs.addAll(CudaRepositoryNames.debs(590, versions));
    for (String branch : List.of("590", "595")) {
      debs.add(
          new AptRepositoryStandIn.Deb(
              "nvidia-driver-pinning-" + branch,
              branch + "-1",
              "all",
              "",
              Map.of(
                  "etc/apt/preferences.d/nvidia-driver-pinning-" + branch,
                  "Package: nvidia-open nvidia-fabricmanager libnvidia-*\nPin: version "
                      + branch
                      + ".*\nPin-Priority: 1000\n")));
    }
    debs.add(plain("cuda-toolkit-13-1", "13.1.0-1"));
    debs.add(plain("datacenter-gpu-manager-4-cuda13", "1:4.4.2-1"));

    Path spec = tmp.resolve("spec590.yaml");
    Files.writeString(
        spec,
        Files.readString(RenderedCase.spec("reference"))
            .replace("driver: \"580.95.05\"", "driver: \"590.48.01\"")
            .replace("cuda: \"12.8\"", "cuda: \"13.1\""));
    Path out = tmp.resolve("out590");
    dev.gpugen.Cli cli = dev.gpugen.Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(0, cli.exit(), cli::toString);
    Path dir = out.resolve("ansible");
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try (AptRepositoryStandIn repo = new AptRepositoryStandIn(tmp, "debian12", debs)) {
      onlyTheStandIn(root);
      Map<String, Integer> first = run(dir, root, repo, "first run (590)");
      assertEquals(0, first.get("failed"), first::toString);
      Map<String, Integer> second = run(dir, root, repo, "second run (590)");
      assertEquals(0, second.get("changed"), "second run changed something: " + second);

      Map<String, String> installed = installed(root);
      assertEquals("590-1", installed.get("nvidia-driver-pinning-590"), installed::toString);
      assertTrue(!installed.containsKey("nvidia-driver-pinning-595"), installed::toString);
      assertEquals("590.48.01-1", installed.get("nvidia-open"), installed::toString);
      assertEquals("590.48.01-1", installed.get("nvidia-fabricmanager"), installed::toString);
      assertEquals("590.48.01-1", installed.get("libnvidia-nscq"), installed::toString);
      assertTrue(Files.exists(root.resolve("etc/apt/preferences.d/nvidia-driver-pinning-590")));

      // dpkg's log: the pinning package was unpacked before the driver.
      List<String> log = Files.readAllLines(root.resolve("var/log/dpkg.log"));
      int pinning = indexOf(log, " install nvidia-driver-pinning-590:all ");
      int driver = indexOf(log, " install nvidia-open:amd64 ");
      assertTrue(pinning >= 0 && driver > pinning, String.join("\n", log));
      String upgrade = chroot(root, "apt-get", "-s", "dist-upgrade");
      assertTrue(!upgrade.contains("Inst nvidia") && !upgrade.contains("Inst libnvidia"), upgrade);
      assertEquals(List.of(), repo.misses(), repo.requests()::toString);
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * mirrors.cuda: the air-gapped example's play 01 installs everything from the team's mirror of
   * NVIDIA's repository. The cuda-keyring package (from the mirror) installs a sources entry that
   * names NVIDIA's host, here an address nothing answers on: the run passes only because the role
   * points that entry at the mirror before apt reads it.
   */
  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void aCudaMirrorServesTheKeyringAndEveryPackageAndTheSourcesEntryNamesIt() throws Exception {
    List<AptRepositoryStandIn.Deb> debs = new ArrayList<>();
    debs.addAll(
        family("nvidia-open-580", "libnvidia-compute-580", List.of("580.95.05-1", "580.105.08-1")));
    debs.addAll(family("libnvidia-compute-580", "", List.of("580.95.05-1", "580.105.08-1")));
    debs.addAll(CudaRepositoryNames.debs(580, List.of("580.95.05-1")));
    debs.add(plain("cuda-toolkit-12-8", "12.8.1-1"));
    debs.add(plain("datacenter-gpu-manager-4-cuda13", "1:4.4.2-1"));
    String upstream = "http://127.0.0.1:9/compute/cuda/repos/debian12/x86_64";
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try (AptRepositoryStandIn mirror = new AptRepositoryStandIn(tmp, "debian12", debs, upstream)) {
      String base = mirror.url().replace("/debian12/x86_64", "");
      Path spec = tmp.resolve("airgapped.yaml");
      String golden = Files.readString(RenderedCase.spec("aws-airgapped"));
      assertTrue(golden.contains("https://artifactory.vault.example.com/artifactory/nvidia-cuda"));
      Files.writeString(
          spec,
          golden.replace("https://artifactory.vault.example.com/artifactory/nvidia-cuda", base));
      Path out = tmp.resolve("out-airgapped");
      // The stand-in speaks plain http on loopback; the rule that refuses a key over http guards
      // real networks, and is switched off for this render only.
      dev.gpugen.Cli cli =
          dev.gpugen.Cli.run(
              "render",
              spec.toString(),
              "-o",
              out.toString(),
              "--skip-rule",
              "sec-mirror-key-over-http");
      assertEquals(0, cli.exit(), cli::toString);
      onlyTheStandIn(root);
      Path dir = out.resolve("ansible");
      Map<String, Integer> first = play(dir, root, "01-nvidia-driver.yml", List.of(), "mirror");
      assertEquals(0, first.get("failed"), first::toString);
      Map<String, Integer> second =
          play(dir, root, "01-nvidia-driver.yml", List.of(), "mirror again");
      assertEquals(0, second.get("changed"), "second run changed something: " + second);

      assertEquals("580.95.05-1", installed(root).get("nvidia-open-580"));
      assertEquals(
          "deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] " + mirror.url() + "/ /\n",
          Files.readString(root.resolve("etc/apt/sources.list.d/cuda-debian12-x86_64.list")));
      assertEquals(List.of(), mirror.misses(), mirror.requests()::toString);
      assertTrue(
          mirror
              .requests()
              .contains("GET /compute/cuda/repos/debian12/x86_64/cuda-keyring_1.1-1_all.deb"),
          mirror.requests()::toString);
      assertTrue(
          mirror.requests().stream()
              .anyMatch(r -> r.endsWith("/nvidia-open-580_580.95.05-1_amd64.deb")),
          mirror.requests()::toString);
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * A p6-b200 pool (HGX B200: fourth-generation NVSwitch, NVLink 5): besides Fabric Manager, the
   * NVLink Subnet Manager and infiniband-diags (NVIDIA's driver container's nvlink5_pkgs_install;
   * infiniband-diags from the distribution's archive, a second stand-in here), and mlx5_core and
   * ib_umad loaded at every boot, which the driver container waits for before Fabric Manager.
   */
  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void nvlink5PoolsGetTheSubnetManagerAndItsKernelModules() throws Exception {
    List<String> versions = List.of("580.95.05-1");
    List<AptRepositoryStandIn.Deb> debs = new ArrayList<>();
    debs.addAll(family("nvidia-open-580", "libnvidia-compute-580", versions));
    debs.addAll(family("libnvidia-compute-580", "", versions));
    debs.addAll(CudaRepositoryNames.debs(580, versions));
    debs.add(plain("nvlsm", "2025.06.4-1"));
    debs.add(plain("cuda-toolkit-12-8", "12.8.1-1"));
    debs.add(plain("datacenter-gpu-manager-4-cuda13", "1:4.4.2-1"));

    Path spec = tmp.resolve("spec-b200.yaml");
    String reference = Files.readString(RenderedCase.spec("reference"));
    assertTrue(reference.contains("instanceType: p5.48xlarge"), reference);
    Files.writeString(
        spec, reference.replace("instanceType: p5.48xlarge", "instanceType: p6-b200.48xlarge"));
    Path out = tmp.resolve("out-b200");
    dev.gpugen.Cli cli = dev.gpugen.Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(0, cli.exit(), cli::toString);
    Path dir = out.resolve("ansible");
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try (AptRepositoryStandIn repo = new AptRepositoryStandIn(tmp, "debian12", debs);
        AptRepositoryStandIn archive =
            new AptRepositoryStandIn(
                tmp, "/ubuntu", "ubuntu-archive", List.of(plain("infiniband-diags", "39.0-1")))) {
      onlyTheStandIn(root);
      archive.configure(root);
      Map<String, Integer> first = run(dir, root, repo, "first run (p6-b200)");
      assertEquals(0, first.get("failed"), first::toString);
      Map<String, Integer> second = run(dir, root, repo, "second run (p6-b200)");
      assertEquals(0, second.get("changed"), "second run changed something: " + second);

      Map<String, String> installed = installed(root);
      assertEquals("2025.06.4-1", installed.get("nvlsm"), installed::toString);
      assertEquals("39.0-1", installed.get("infiniband-diags"), installed::toString);
      assertEquals("580.95.05-1", installed.get("nvidia-fabricmanager"), installed::toString);
      List<String> modules =
          Files.readAllLines(root.resolve("etc/modules-load.d/gpugen-nvlink5.conf")).stream()
              .filter(l -> !l.startsWith("#") && !l.isBlank())
              .toList();
      assertEquals(List.of("mlx5_core", "ib_umad"), modules);
      assertEquals(List.of(), repo.misses(), repo.requests()::toString);
    } finally {
      TestRoot.delete(root);
    }
  }

  private static int indexOf(List<String> lines, String needle) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(needle)) {
        return i;
      }
    }
    return -1;
  }

  /** Tests talk to loopback only: the root's Debian sources go, so apt sees the stand-in alone. */
  private static void onlyTheStandIn(Path root) throws Exception {
    Files.writeString(root.resolve("etc/apt/sources.list"), "");
  }

  /** Play 01 alone, on one chroot host of the pool, with the repository URL of the stand-in. */
  private Map<String, Integer> run(Path dir, Path root, AptRepositoryStandIn repo, String which)
      throws Exception {
    return play(
        dir,
        root,
        "01-nvidia-driver.yml",
        List.of("-e", "nvidia_driver_repo_url=" + repo.url()),
        which);
  }

  /** One playbook on one chroot host of pool h100 (reboots skipped, GPU steps skipped). */
  private Map<String, Integer> play(
      Path dir, Path root, String playbook, List<String> extra, String which) throws Exception {
    Path inventory =
        Files.writeString(
            tmp.resolve("inventory.yml"), RealTools.chrootInventory(root, "pool_h100"));
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "ansible-playbook", "-i", inventory.toString(), "--skip-tags", "hardware,reboot"));
    cmd.addAll(extra);
    cmd.add(playbook);
    long start = System.nanoTime();
    RealTools.Result r = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
    System.out.printf(
        "chroot %s: %d ms%n", which, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    RenderedCase.assertExit(0, r);
    return RealTools.recap(r.output(), "testhost");
  }

  private static String chroot(Path root, String... cmd) throws Exception {
    List<String> full = new ArrayList<>(List.of("chroot", root.toString()));
    full.addAll(List.of(cmd));
    RealTools.Result r = RealTools.run(Path.of("/"), Duration.ofMinutes(2), Map.of(), full);
    r.assertOk();
    return r.output();
  }

  /** Installed packages and their versions, from dpkg's status file. */
  private static Map<String, String> installed(Path root) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (String stanza : Files.readString(root.resolve("var/lib/dpkg/status")).split("\n\n")) {
      String name = field(stanza, "Package");
      if (field(stanza, "Status").endsWith(" installed")) {
        out.put(name, field(stanza, "Version"));
      }
    }
    return out;
  }

  /** Those of {@code names} that dpkg has on hold, in the order given. */
  private static List<String> held(Path root, List<String> names) throws Exception {
    List<String> out = new ArrayList<>();
    for (String stanza : Files.readString(root.resolve("var/lib/dpkg/status")).split("\n\n")) {
      if (names.contains(field(stanza, "Package")) && field(stanza, "Status").startsWith("hold ")) {
        out.add(field(stanza, "Package"));
      }
    }
    out.sort(java.util.Comparator.comparingInt(names::indexOf));
    return out;
  }

  private static String field(String stanza, String name) {
    for (String line : stanza.split("\n")) {
      if (line.startsWith(name + ": ")) {
        return line.substring(name.length() + 2);
      }
    }
    return "";
  }
}
