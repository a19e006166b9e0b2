package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
 *
 * <p>The four cases are four hosts of one run of play 01 and of one idempotence run (Ansible's
 * start-up paid once per run, not once per case), each with its own root and its own stand-in.
 * Their renders differ only in variables: the class checks that play 01's files are the same in
 * each and gives each host its render's group_vars as its host_vars; each test judges its own host.
 */
@ChrootTest
class CudaRepositoryTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(20);

  @TempDir static Path tmp;

  /** A case's host: its root, its stand-in, and its render's ansible/ folder. */
  private record Case(Path root, AptRepositoryStandIn repo, Path render) {}

  /** Host name -> case, in the inventory's order. */
  private static final Map<String, Case> CASES = new LinkedHashMap<>();

  /** Every stand-in, closed after the class; a set, as a case may register its own early. */
  private static final java.util.Set<AptRepositoryStandIn> SERVERS =
      new java.util.LinkedHashSet<>();

  private static RealTools.Result first;
  private static RealTools.Result second;

  @BeforeAll
  @Timeout(value = 50, unit = TimeUnit.MINUTES)
  static void installEveryCaseInOneRun() throws Exception {
    branch580();
    branch590();
    mirror();
    nvlink5();
    Path dir = CASES.get("branch580").render();
    Map<String, String> play01 = play01Files(dir);
    StringBuilder inv = new StringBuilder("all:\n  children:\n    gpu_nodes:\n      hosts:\n");
    for (Map.Entry<String, Case> e : CASES.entrySet()) {
      Case c = e.getValue();
      // The run reads play 01 from the 580 render: each case's must be the same files.
      assertEquals(play01, play01Files(c.render()), e.getKey() + ": play 01 differs");
      Path vars = Files.createDirectories(dir.resolve("host_vars/" + e.getKey()));
      try (var files = Files.list(c.render().resolve("group_vars"))) {
        assertEquals(
            List.of("all.yml", "pool_h100.yml"),
            files.map(f -> f.getFileName().toString()).sorted().toList(),
            e.getKey());
      }
      // Loaded in name order, so the pool's values win over all's, as its group's do.
      Files.copy(c.render().resolve("group_vars/all.yml"), vars.resolve("0-all.yml"));
      Files.copy(c.render().resolve("group_vars/pool_h100.yml"), vars.resolve("1-pool_h100.yml"));
      inv.append("        ")
          .append(e.getKey())
          .append(": {ansible_connection: community.general.chroot, ansible_host: \"")
          .append(c.root())
          .append('"');
      inv.append("}\n");
      // The mirror case names its repository in its render (mirrors.cuda), the others here: a
      // host_vars file loaded last, so no value of the render's can take the host elsewhere.
      if (!e.getKey().equals("mirror")) {
        Files.writeString(
            vars.resolve("2-stand-in.yml"),
            "nvidia_driver_repo_url: \"" + c.repo().url() + "\"\n",
            StandardCharsets.UTF_8);
      }
    }
    inv.append("    pool_h100:\n      hosts:\n");
    CASES.keySet().forEach(h -> inv.append("        ").append(h).append(":\n"));
    // No group_vars beside the playbook: a host sees its own render's values and no other's.
    for (String f : List.of("all.yml", "pool_h100.yml")) {
      Files.delete(dir.resolve("group_vars").resolve(f));
    }
    Path inventory = Files.writeString(tmp.resolve("inventory.yml"), inv.toString());
    first = play(dir, inventory, "first run");
    second = play(dir, inventory, "second run");
  }

  @AfterAll
  static void stopTheStandIns() {
    SERVERS.forEach(AptRepositoryStandIn::close);
  }

  /**
   * The reference spec's case (its render is the one the run reads play 01 from): the 580 release
   * before the spec's and the one after it, and the newest branch, whose names carry no branch.
   */
  private static void branch580() throws Exception {
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
    Path dir = RenderedCase.render("reference", tmp.resolve("render-580")).ansible();
    add("branch580", new AptRepositoryStandIn(tmp.resolve("repo-580"), "debian12", debs), dir);
  }

  /** Branch 590: the spec's driver and CUDA moved on, the repository's names carry no branch. */
  private static void branch590() throws Exception {
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
    add(
        "branch590",
        new AptRepositoryStandIn(tmp.resolve("repo-590"), "debian12", debs),
        out.resolve("ansible"));
  }

  /** The air-gapped example with its mirrors.cuda pointed at a stand-in of the team's mirror. */
  private static void mirror() throws Exception {
    List<AptRepositoryStandIn.Deb> debs = new ArrayList<>();
    debs.addAll(
        family("nvidia-open-580", "libnvidia-compute-580", List.of("580.95.05-1", "580.105.08-1")));
    debs.addAll(family("libnvidia-compute-580", "", List.of("580.95.05-1", "580.105.08-1")));
    debs.addAll(CudaRepositoryNames.debs(580, List.of("580.95.05-1")));
    debs.add(plain("cuda-toolkit-12-8", "12.8.1-1"));
    debs.add(plain("datacenter-gpu-manager-4-cuda13", "1:4.4.2-1"));
    String upstream = "http://127.0.0.1:9/compute/cuda/repos/debian12/x86_64";
    AptRepositoryStandIn mirror =
        new AptRepositoryStandIn(tmp.resolve("repo-mirror"), "debian12", debs, upstream);
    SERVERS.add(mirror);
    String mirrorBase = mirror.url().replace("/debian12/x86_64", "");
    Path spec = tmp.resolve("airgapped.yaml");
    String golden = Files.readString(RenderedCase.spec("aws-airgapped"));
    assertTrue(golden.contains("https://artifactory.vault.example.com/artifactory/nvidia-cuda"));
    Files.writeString(
        spec,
        golden.replace(
            "https://artifactory.vault.example.com/artifactory/nvidia-cuda", mirrorBase));
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
    add("mirror", mirror, out.resolve("ansible"));
  }

  /** The reference spec on p6-b200, with infiniband-diags in a stand-in of Ubuntu's archive. */
  private static void nvlink5() throws Exception {
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
    Path work = tmp.resolve("repo-b200");
    AptRepositoryStandIn archive =
        new AptRepositoryStandIn(
            work, "/ubuntu", "ubuntu-archive", List.of(plain("infiniband-diags", "39.0-1")));
    SERVERS.add(archive);
    Case c = add("b200", new AptRepositoryStandIn(work, "debian12", debs), out.resolve("ansible"));
    archive.configure(c.root());
  }

  /** A fresh root for {@code host} that sees only {@code repo} (and what is configured later). */
  private static Case add(String host, AptRepositoryStandIn repo, Path render) throws Exception {
    SERVERS.add(repo);
    Path root = TestRoot.fresh(tmp.resolve("root-" + host));
    onlyTheStandIn(root);
    Case c = new Case(root, repo, render);
    CASES.put(host, c);
    return c;
  }

  /**
   * What play 01 reads from a render besides the variables: the playbook, ansible.cfg and the
   * nvidia_driver role, by relative path, without the header naming the spec (and ansible.cfg's
   * forks, which only caps the parallel hosts).
   */
  private static Map<String, String> play01Files(Path dir) throws Exception {
    Map<String, String> out = new TreeMap<>();
    List<Path> files = new ArrayList<>(List.of(dir.resolve("01-nvidia-driver.yml")));
    files.add(dir.resolve("ansible.cfg"));
    try (var role = Files.walk(dir.resolve("roles/nvidia_driver"))) {
      role.filter(Files::isRegularFile).forEach(files::add);
    }
    for (Path f : files) {
      out.put(
          dir.relativize(f).toString(),
          Files.readString(f)
              .replaceFirst("^# Code generated by gpugen from [^\n]*\n", "")
              .replaceAll("(?m)^forks = \\d+\n", ""));
    }
    return out;
  }

  /** The counts of {@code host} in the recap of {@code run}, which it must have passed. */
  /**
   * The host's case after both runs: the first passed and changed it, the second changed nothing.
   */
  private static Case converged(String host) {
    Map<String, Integer> firstRun = passed(first, host);
    assertTrue(firstRun.get("changed") > 0, () -> host + ": " + firstRun);
    Map<String, Integer> secondRun = passed(second, host);
    assertEquals(
        0,
        secondRun.get("changed"),
        () -> host + ": the second run changed something: " + secondRun);
    return CASES.get(host);
  }

  private static Map<String, Integer> passed(RealTools.Result run, String host) {
    Map<String, Integer> counts = RealTools.recap(run.output(), host);
    assertEquals(
        0,
        counts.get("failed") + counts.get("unreachable"),
        () -> host + " failed in " + String.join(" ", run.command()) + ":\n" + run.output());
    return counts;
  }

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
  void branch580InstallsTheExactVersionFromNvidiasRepositoryAndKeepsIt() throws Exception {
    Case c = converged("branch580");
    Path root = c.root();
    AptRepositoryStandIn repo = c.repo();

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
  }

  /**
   * Branch 590 and later: the packages carry no branch in their names, and NVIDIA's pinning package
   * {@code nvidia-driver-pinning-590} keeps apt on the branch; the role installs it before the
   * driver, as NVIDIA's guide advises, then the exact version.
   */
  @Test
  void branch590InstallsThePinningPackageFirstThenTheExactVersion() throws Exception {
    Case c = converged("branch590");
    Path root = c.root();
    AptRepositoryStandIn repo = c.repo();

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
    assertTrue(repo.requests().contains("GET /compute/cuda/repos/debian12/x86_64/InRelease"));
  }

  /**
   * mirrors.cuda: the air-gapped example's play 01 installs everything from the team's mirror of
   * NVIDIA's repository. The cuda-keyring package (from the mirror) installs a sources entry that
   * names NVIDIA's host, here an address nothing answers on: the run passes only because the role
   * points that entry at the mirror before apt reads it.
   */
  @Test
  void aCudaMirrorServesTheKeyringAndEveryPackageAndTheSourcesEntryNamesIt() throws Exception {
    Case c = converged("mirror");
    Path root = c.root();
    AptRepositoryStandIn mirror = c.repo();

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
  }

  /**
   * A p6-b200 pool (HGX B200: fourth-generation NVSwitch, NVLink 5): besides Fabric Manager, the
   * NVLink Subnet Manager and infiniband-diags (NVIDIA's driver container's nvlink5_pkgs_install;
   * infiniband-diags from the distribution's archive, a second stand-in here), and mlx5_core and
   * ib_umad loaded at every boot, which the driver container waits for before Fabric Manager.
   */
  @Test
  void nvlink5PoolsGetTheSubnetManagerAndItsKernelModules() throws Exception {
    Case c = converged("b200");
    Path root = c.root();
    AptRepositoryStandIn repo = c.repo();

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
    assertTrue(repo.requests().contains("GET /compute/cuda/repos/debian12/x86_64/InRelease"));
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

  /** Play 01 on every case's host (reboots skipped, GPU steps skipped). */
  private static RealTools.Result play(Path dir, Path inventory, String which) throws Exception {
    List<String> cmd =
        List.of(
            "ansible-playbook",
            "-i",
            inventory.toString(),
            "--skip-tags",
            "hardware,reboot",
            "01-nvidia-driver.yml");
    long start = System.nanoTime();
    RealTools.Result r = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
    System.out.printf(
        "chroot %s (%d hosts): %d ms%n",
        which, CASES.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    return r;
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
