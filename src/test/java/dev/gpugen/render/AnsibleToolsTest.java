package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Cli;
import dev.gpugen.Golden;
import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.Converged;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import dev.gpugen.testing.TestRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rendered playbooks and roles checked with the real tools: ansible-playbook's syntax check,
 * Ansible's view of the inventories, and real runs against a Debian 12 root built with debootstrap,
 * through the community.general.chroot connection ({@link ChrootTest}; ansible-lint is {@link
 * AnsibleLintTest}). The runs skip only the steps that need GPUs or the network (tags {@link
 * #SKIPPED_TAGS}); they must converge, change nothing the second time and leave the test machine
 * itself untouched. Tests that start from a configured node share one {@link Converged} snapshot.
 * Cases that differ only in host variables or in what the test put into a root are hosts of one
 * run, each on its own root: Ansible's start-up is paid once and the hosts run in parallel.
 */
@RealToolsTest
class AnsibleToolsTest {
  /** Steps that need a GPU node or the internet; everything else runs for real. */
  static final String SKIPPED_TAGS = "hardware,network,reboot,helm,kubernetes,burn-in";

  /**
   * The FSx for Lustre address gpugen-inventory gives an EC2 node from its tags (Terraform sets
   * them to the file system's DNS and mount names); the chroot hosts get it the same way, as host
   * variables.
   */
  static final String LUSTRE_DNS_NAME = "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com";

  static final String LUSTRE_HOST_VARS =
      "gpugen_lustre_dns_name: " + LUSTRE_DNS_NAME + ", gpugen_lustre_mount_name: abcdef12";

  private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);

  /** Renders for the read-only checks (syntax, inventory); the playbook runs render their own. */
  @TempDir static Path rendered;

  private static final Map<String, RenderedCase> CASES = new LinkedHashMap<>();

  @TempDir Path tmp;

  @BeforeAll
  static void renderAndCheckTools() throws Exception {
    for (String tool : List.of("ansible-playbook", "debootstrap", "chroot")) {
      RenderedCase.requireTool(tool);
    }
    for (String name : RenderedCase.CASES) {
      CASES.put(name, RenderedCase.render(name, rendered.resolve(name)));
    }
  }

  /**
   * Every case's playbooks pass {@code ansible-playbook --syntax-check}. ansible-playbook checks
   * each playbook it is given, so the cases that share one ansible.cfg are checked by one process
   * run from the first one's folder (that ansible.cfg applies, with its deprecations); every other
   * playbook is named by its path, and its roles are found beside it. The roles path is an empty
   * folder so that no playbook can borrow a role from another case's folder.
   */
  @Test
  void everyPlaybookPassesTheSyntaxCheck() throws Exception {
    // ansible.cfg -> case name -> its ansible/ folder
    Map<String, Map<String, Path>> byConfig = new LinkedHashMap<>();
    for (String name : RenderedCase.CASES) {
      Path dir = CASES.get(name).ansible();
      // GKE renders only the cluster-level plays 03-05 (GkeAnsibleTest runs them); no upgrade.
      assertEquals(name.equals("gcp-gke"), !Files.exists(dir.resolve("upgrade-driver.yml")), name);
      byConfig
          .computeIfAbsent(Files.readString(dir.resolve("ansible.cfg")), k -> new LinkedHashMap<>())
          .put(name, dir);
    }
    Path noRoles = Files.createDirectories(tmp.resolve("no-roles"));
    for (Map<String, Path> cases : byConfig.values()) {
      Path cwd = cases.values().iterator().next();
      // the path ansible-playbook is given -> the case and playbook it checks
      Map<String, String> playbooks = new LinkedHashMap<>();
      cases.forEach(
          (name, dir) -> {
            for (String playbook : List.of("site.yml", "upgrade-driver.yml")) {
              if (Files.exists(dir.resolve(playbook))) {
                playbooks.put(
                    cwd.relativize(dir.resolve(playbook)).toString(), name + " " + playbook);
              }
            }
          });
      Map<String, String> env = Map.of("ANSIBLE_ROLES_PATH", noRoles.toString());
      RealTools.Result r = syntaxCheck(cwd, env, playbooks.keySet());
      if (r.exitCode() != 0) {
        // It stops at the first error, before listing any playbook: name the failing ones.
        StringBuilder failed = new StringBuilder();
        for (Map.Entry<String, String> p : playbooks.entrySet()) {
          RealTools.Result one = syntaxCheck(cwd, env, List.of(p.getKey()));
          if (one.exitCode() != 0) {
            failed.append(p.getValue()).append(":\n").append(one.output()).append('\n');
          }
        }
        fail("syntax check failed: " + failed + "\nall together:\n" + r.output());
      }
      for (String playbook : playbooks.keySet()) {
        assertTrue(r.output().contains("playbook: " + playbook + "\n"), r.output());
      }
      assertFalse(r.output().contains("[DEPRECATION WARNING]"), r.output());
    }
  }

  private static RealTools.Result syntaxCheck(
      Path cwd, Map<String, String> env, java.util.Collection<String> playbooks) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("ansible-playbook", "--syntax-check"));
    cmd.addAll(List.of("-i", "localhost,"));
    cmd.addAll(playbooks);
    return RealTools.run(cwd, TOOL_TIMEOUT, env, cmd);
  }

  /**
   * A static spec's inventory.yml, read by Ansible itself through the rendered ansible.cfg: the
   * groups and gpugen_* host variables gpugen-inventory gives EC2 hosts, the spec's host vars, and
   * every value a plain string.
   */
  @Test
  void staticInventoryGivesTheGroupsAndHostVarsOfTheEc2One() throws Exception {
    Path dir = CASES.get("static-baremetal").ansible();
    for (List<String> args :
        List.of(
            List.of("ansible-inventory", "--list"),
            List.of("ansible-inventory", "-i", "inventory.yml", "--list"))) {
      RealTools.Result r = RealTools.run(dir, TOOL_TIMEOUT, Map.of(), args.toArray(String[]::new));
      RenderedCase.assertExit(0, r);
      com.fasterxml.jackson.databind.JsonNode list =
          new com.fasterxml.jackson.databind.ObjectMapper()
              .readTree(r.output().substring(r.output().indexOf('{')));
      assertEquals(
          List.of("gpu-node-01", "gpu-node-02", "infer-01.lab.example.com"),
          hosts(list, "gpu_nodes"));
      assertEquals(List.of("gpu-node-01", "gpu-node-02"), hosts(list, "pool_h100"));
      assertEquals(List.of("infer-01.lab.example.com"), hosts(list, "pool_l4_infer"));
      assertEquals(
          List.of("gpu-node-01", "gpu-node-02", "infer-01.lab.example.com"),
          hosts(list, "on_demand"));
      com.fasterxml.jackson.databind.JsonNode vars =
          list.path("_meta").path("hostvars").path("gpu-node-02");
      assertEquals("10.20.0.12", text(vars.path("ansible_host")));
      assertEquals("ops", text(vars.path("ansible_user")));
      assertEquals("onprem", text(vars.path("gpugen_cluster")));
      assertEquals("prod", text(vars.path("gpugen_environment")));
      assertEquals("h100", text(vars.path("gpugen_pool")));
      assertEquals("580.95.05", text(vars.path("gpugen_expected_driver")));
      assertEquals(
          "570.195.03",
          list.path("_meta")
              .path("hostvars")
              .path("infer-01.lab.example.com")
              .path("gpugen_expected_driver")
              .path("__ansible_unsafe")
              .asText());
    }
  }

  /** A host variable's text: ansible-inventory shows !unsafe values as {__ansible_unsafe: text}. */
  private static String text(com.fasterxml.jackson.databind.JsonNode value) {
    return value.has("__ansible_unsafe") ? value.path("__ansible_unsafe").asText() : value.asText();
  }

  private static List<String> hosts(com.fasterxml.jackson.databind.JsonNode list, String group) {
    List<String> out = new java.util.ArrayList<>();
    list.path(group).path("hosts").forEach(h -> out.add(h.asText()));
    return out;
  }

  /**
   * ansible.cfg sets unparsed_is_failed (without it this run ends "no hosts matched", exit 0) and
   * enables only the script plugin for a file: the yaml and ini plugins also accept a file without
   * extension and would follow the real error with their parse errors of the shell script.
   */
  @Test
  void aFailingInventoryScriptFailsTheRunWithItsOwnErrorOnly() throws Exception {
    Path script = tmp.resolve("failing-inventory");
    Files.writeString(script, "#!/bin/sh\necho 'DescribeInstances: AuthFailure' >&2\nexit 1\n");
    assertTrue(script.toFile().setExecutable(true));
    for (List<String> cmd :
        List.of(
            List.of("ansible-playbook", "-i", script.toString(), "--list-hosts", "site.yml"),
            List.of("ansible-inventory", "-i", script.toString(), "--list"))) {
      RealTools.Result r =
          RealTools.run(CASES.get("reference").ansible(), TOOL_TIMEOUT, Map.of(), cmd);
      assertNotEquals(0, r.exitCode(), r.output());
      // Ansible wraps its warnings at the terminal width.
      String out = r.output().replaceAll("\\s+", " ");
      assertTrue(out.contains("No inventory was parsed"), out);
      assertTrue(out.contains("with script plugin"), out);
      assertTrue(out.contains("DescribeInstances: AuthFailure"), out);
      assertEquals(
          1, out.split("Failed to parse", -1).length - 1, "only the script plugin tried: " + out);
      for (String noise : List.of("yaml plugin", "ini plugin", "toml plugin", "auto plugin")) {
        assertFalse(out.contains(noise), noise + ": " + out);
      }
    }
  }

  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void chrootRunConvergesThenChangesNothingAndLeavesTheHostAlone() throws Exception {
    String hostMapCount = Files.readString(Path.of("/proc/sys/vm/max_map_count"));
    String hostNuma = Files.readString(Path.of("/proc/sys/kernel/numa_balancing"));
    boolean hostNcclConf = Files.exists(Path.of("/etc/nccl.conf"));
    Converged site = reference();
    Path dir = site.render(tmp.resolve("ran"));
    Path root = site.root("testhost", tmp.resolve("root"));
    try {
      Map<String, Integer> first = site.first("testhost");
      assertEquals(0, first.get("failed"));
      assertTrue(first.get("changed") > 0, first::toString);
      Map<String, Integer> second = site.second("testhost");
      assertEquals(0, second.get("changed"), "second run changed something: " + second);

      assertEquals(
          "# Managed by Ansible (gpugen role prerequisites); local changes are overwritten.\n"
              + "blacklist nouveau\n"
              + "options nouveau modeset=0\n",
          Files.readString(root.resolve("etc/modprobe.d/blacklist-nouveau.conf")));
      assertEquals(
          "kernel.numa_balancing=0\nvm.max_map_count=2147483647\n",
          Files.readString(root.resolve("etc/sysctl.d/90-gpugen.conf")));
      assertEquals(
          List.of("NCCL_DEBUG=WARN", "NCCL_SOCKET_IFNAME=^lo,docker"),
          settings(root.resolve("etc/nccl.conf")));
      assertEquals(
          List.of("export NCCL_DEBUG=WARN", "export NCCL_SOCKET_IFNAME='^lo,docker'"),
          settings(root.resolve("etc/profile.d/nccl.sh")));
      assertEquals(
          List.of(
              "Package: nvidia-* libnvidia-* cuda-drivers cuda-drivers-* xserver-xorg-video-nvidia-*",
              "Pin: version 580.95.05-*",
              "Pin-Priority: 1001"),
          settings(root.resolve("etc/apt/preferences.d/gpugen-nvidia-driver.pref")));
      assertTrue(
          settings(root.resolve("etc/apt/preferences.d/gpugen-nvidia-container-toolkit.pref"))
              .contains("Pin: version 1.17.8-*"));
      // Persistence mode on: the packaged unit's --no-persistence-mode replaced by a drop-in.
      assertEquals(
          List.of(
              "[Service]",
              "ExecStart=",
              "ExecStart=/usr/bin/nvidia-persistenced --user nvidia-persistenced"
                  + " --persistence-mode --verbose"),
          settings(root.resolve("etc/systemd/system/nvidia-persistenced.service.d/gpugen.conf")));

      // storage.lustre: the file system in /etc/fstab with AWS's options, so systemd mounts it at
      // boot (the mount itself, the client install and the mount check need the network).
      assertTrue(
          Files.readAllLines(root.resolve("etc/fstab"))
              .contains(
                  LUSTRE_DNS_NAME
                      + "@tcp:/abcdef12 /fsx lustre"
                      + " defaults,relatime,flock,_netdev,x-systemd.automount 0 0"),
          () -> {
            try {
              return Files.readString(root.resolve("etc/fstab"));
            } catch (java.io.IOException e) {
              return e.toString();
            }
          });
      assertFalse(
          Files.exists(root.resolve("etc/apt/sources.list.d/fsxlustreclientrepo.list")),
          "the repository is added by the network steps only");

      // The baseline: what the spec asked for, the NCCL hash, no validated_at (nothing was
      // validated: every check was skipped by tag).
      JsonNode fact =
          new ObjectMapper().readTree(root.resolve("etc/ansible/facts.d/gpugen.fact").toFile());
      assertEquals(64, fact.get("gpugen_spec_sha256").asText().length(), fact::toString);
      assertEquals("580.95.05", fact.get("driver").asText(), fact::toString);
      assertEquals("h100", fact.get("pool").asText(), fact::toString);
      assertEquals(
          dev.gpugen.spec.Sha256.hex("NCCL_DEBUG=WARN\nNCCL_SOCKET_IFNAME=^lo,docker\n"),
          fact.get("nccl_env_sha256").asText());
      assertFalse(fact.has("validated_at"), fact::toString);
      assertTrue(
          Files.isExecutable(root.resolve("etc/ansible/facts.d/gpugen_nccl.fact")),
          "the live NCCL fact is executable");

      // The report came back to the controller; every check was skipped by tag, none failed.
      String report = Files.readString(dir.resolve("reports/testhost.json"));
      assertTrue(report.contains("\"passed\": true"), report);
      assertFalse(report.contains("\"fail\""), report);
      // The spec names an EKS cluster: play 03 writes the chart values on the controller (the
      // Helm install itself is skipped by tag), with the operator's driver and toolkit off
      // because plays 01 and 02 installed them on the host.
      Map<?, ?> values =
          (Map<?, ?>)
              new org.snakeyaml.engine.v2.api.Load(
                      org.snakeyaml.engine.v2.api.LoadSettings.builder().build())
                  .loadFromString(
                      Files.readString(dir.resolve("reports/gpu-operator-values.yaml")));
      assertEquals(Map.of("enabled", false), values.get("driver"), values::toString);
      assertEquals(Map.of("enabled", false), values.get("toolkit"), values::toString);

      // A chroot shares the host's kernel: the run must not have touched the test machine.
      assertEquals(hostMapCount, Files.readString(Path.of("/proc/sys/vm/max_map_count")));
      assertEquals(hostNuma, Files.readString(Path.of("/proc/sys/kernel/numa_balancing")));
      assertEquals(hostNcclConf, Files.exists(Path.of("/etc/nccl.conf")));
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * site.yml converged on one H100 node of the reference render, its Lustre address given as the
   * inventory gives it: one snapshot for every test that starts from a configured node.
   */
  private Converged reference() throws Exception {
    return site(
        RenderedCase.render("reference", tmp.resolve("render")).ansible(),
        new TreeMap<>(Map.of("testhost", "pool_h100")));
  }

  /** site.yml with the tags a chroot cannot run skipped, on one root per host of {@code pools}. */
  private static Converged site(Path dir, SortedMap<String, String> pools) throws Exception {
    return Converged.playbook(dir, "site.yml")
        .hosts(pools.keySet().toArray(String[]::new))
        .inventory(roots -> inventoryText(roots, pools))
        .env(RealTools.YAML_INVENTORY)
        .args("--skip-tags", SKIPPED_TAGS)
        .converge();
  }

  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void chrootRunGivesEachPoolItsOwnDriverAndTheClusterItsSettings() throws Exception {
    Converged site =
        site(
            RenderedCase.render("two-pool", tmp.resolve("render")).ansible(),
            new TreeMap<>(Map.of("a100-0", "pool_a100", "l4-0", "pool_l4_infer")));
    Path dir = site.render(tmp.resolve("ran"));
    Path a100 = site.root("a100-0", tmp.resolve("a100"));
    Path l4 = site.root("l4-0", tmp.resolve("l4"));
    try {
      assertEquals(0, site.first("a100-0").get("failed"));
      assertEquals(0, site.first("l4-0").get("failed"));
      Map<String, Map<String, Integer>> second =
          Map.of("a100-0", site.second("a100-0"), "l4-0", site.second("l4-0"));
      assertEquals(0, second.get("a100-0").get("changed"), second::toString);
      assertEquals(0, second.get("l4-0").get("changed"), second::toString);

      String pin = "etc/apt/preferences.d/gpugen-nvidia-driver.pref";
      assertTrue(settings(a100.resolve(pin)).contains("Pin: version 580.95.05-*"));
      assertTrue(settings(l4.resolve(pin)).contains("Pin: version 570.195.03-*"));
      for (Path root : List.of(a100, l4)) {
        assertEquals(
            "net.core.rmem_max=16777216\nvm.max_map_count=1048576\n",
            Files.readString(root.resolve("etc/sysctl.d/90-gpugen.conf")));
        // NCCL's exact-match syntax: the value itself starts with '='.
        assertEquals(
            List.of("NCCL_DEBUG=WARN", "NCCL_SOCKET_IFNAME==ens5"),
            settings(root.resolve("etc/nccl.conf")));
      }
      String slicing = Files.readString(dir.resolve("reports/gpu-operator-time-slicing.yaml"));
      // Each entry is the device plugin's config file, as a literal block.
      assertTrue(
          slicing.contains("  \"any\": |-\n    version: v1\n    flags:\n      migStrategy: none\n"),
          slicing);
      assertTrue(slicing.contains("            replicas: 4\n"), slicing);
      String values = Files.readString(dir.resolve("reports/gpu-operator-values.yaml"));
      assertTrue(values.contains("migManager:\n  enabled: true\n"), values);
      assertTrue(values.contains("driver:\n  enabled: false\n"), values);
      // One DCGM host engine per node: the host's nvidia-dcgm, which the exporter connects to.
      assertTrue(values.contains("\ndcgm:\n  enabled: false\n"), values);
      assertTrue(
          values.contains(
              "dcgmExporter:\n  enabled: true\n  env:\n  - name: DCGM_REMOTE_HOSTENGINE_INFO\n"
                  + "    value: localhost:5555\n"),
          values);
      // gpu_operator_values through to_nice_yaml: sorted keys, plain scalars.
      assertTrue(
          values.contains("  config:\n    default: any\n    name: time-slicing-config\n"), values);
      assertTrue(Files.exists(dir.resolve("reports/a100-0.json")));
      assertTrue(Files.exists(dir.resolve("reports/l4-0.json")));
    } finally {
      TestRoot.delete(a100);
      TestRoot.delete(l4);
    }
  }

  /**
   * A node of a spec with storage.lustre whose inventory gives no file system address (no
   * gpugen:lustre-* tags: Terraform not applied, or another inventory) fails play 00 with what is
   * missing and where it comes from, before /etc/fstab is touched.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aNodeWithoutTheLustreAddressFailsWithWhatIsMissing() throws Exception {
    Path dir = RenderedCase.render("reference", tmp.resolve("render")).ansible();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try {
      Path inventory =
          Files.writeString(
              tmp.resolve("inventory.yml"),
              "all:\n  children:\n    gpu_nodes:\n      hosts:\n        testhost:"
                  + " {ansible_connection: community.general.chroot, ansible_host: \""
                  + root
                  + "\"}\n    pool_h100:\n      hosts:\n        testhost:\n");
      String fstab = Files.readString(root.resolve("etc/fstab"));
      RealTools.Result r =
          RealTools.run(
              dir,
              RUN_TIMEOUT,
              RealTools.YAML_INVENTORY,
              List.of(
                  "ansible-playbook",
                  "-i",
                  inventory.toString(),
                  "--skip-tags",
                  SKIPPED_TAGS,
                  "00-prerequisites.yml"));
      assertNotEquals(0, r.exitCode(), r.output());
      assertTrue(r.output().contains("No usable FSx for Lustre address for testhost"), r.output());
      assertTrue(r.output().contains("gpugen:lustre-dns-name"), r.output());
      assertEquals(fstab, Files.readString(root.resolve("etc/fstab")));
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * The static bare-metal tree as rendered, unedited: its inventory.yml supplies the hosts, groups
   * and gpugen_* vars, and a second inventory source only points one host of each pool at its own
   * chroot root (Ansible merges hosts of the same name across sources, the later source's vars
   * winning). site.yml runs with the same skipped tags as the AWS runs; each pool's files land on
   * its node, and the second run changes nothing.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void theStaticTreeRunsUneditedAgainstChrootHosts() throws Exception {
    Path rendered = RenderedCase.render("static-baremetal", tmp.resolve("render")).ansible();
    Map<String, byte[]> before = Golden.read(rendered);
    Converged site =
        Converged.playbook(rendered, "site.yml")
            .hosts("gpu-node-01", "infer-01.lab.example.com")
            // The h100 node has NVIDIA's OFED (its kernel headers), which nvidia-peermem needs;
            // the l4 node has only Ubuntu's RDMA stack.
            .directory("gpu-node-01", "usr/src/ofa_kernel/default")
            .args(
                "-i",
                "inventory.yml",
                "--limit",
                "gpu-node-01,infer-01.lab.example.com",
                "--skip-tags",
                SKIPPED_TAGS)
            .inventory(
                roots ->
                    "all:\n  hosts:\n"
                        + "    gpu-node-01:\n"
                        + "      ansible_connection: community.general.chroot\n"
                        + "      ansible_host: "
                        + roots.get("gpu-node-01")
                        + "\n"
                        + "    infer-01.lab.example.com:\n"
                        + "      ansible_connection: community.general.chroot\n"
                        + "      ansible_host: "
                        + roots.get("infer-01.lab.example.com")
                        + "\n")
            .converge();
    Path dir = site.render(tmp.resolve("ran"));
    Path h100 = site.root("gpu-node-01", tmp.resolve("h100"));
    Path l4 = site.root("infer-01.lab.example.com", tmp.resolve("l4"));
    try {
      for (String host : List.of("gpu-node-01", "infer-01.lab.example.com")) {
        Map<String, Integer> recap = site.first(host);
        assertEquals(0, recap.get("failed"), host + ": " + recap);
        assertTrue(recap.get("changed") > 0, host + ": " + recap);
      }
      assertFalse(site.first().output().contains("gpu-node-02"), "--limit kept the third host out");
      for (String host : List.of("gpu-node-01", "infer-01.lab.example.com")) {
        assertEquals(0, site.second(host).get("changed"), host + " changed again");
      }

      // Each pool's software on its own node: the h100 pool the cluster's driver and CUDA, the
      // l4-infer pool its own, and each node's baseline fact naming its pool.
      String pin = "etc/apt/preferences.d/gpugen-nvidia-driver.pref";
      assertTrue(settings(h100.resolve(pin)).contains("Pin: version 580.95.05-*"));
      assertTrue(settings(l4.resolve(pin)).contains("Pin: version 570.195.03-*"));
      String fact = "etc/ansible/facts.d/gpugen.fact";
      JsonNode h100Fact = new ObjectMapper().readTree(h100.resolve(fact).toFile());
      JsonNode l4Fact = new ObjectMapper().readTree(l4.resolve(fact).toFile());
      assertEquals("h100", h100Fact.get("pool").asText(), h100Fact::toString);
      assertEquals("12.8", h100Fact.get("cuda").asText(), h100Fact::toString);
      assertEquals("l4-infer", l4Fact.get("pool").asText(), l4Fact::toString);
      assertEquals("570.195.03", l4Fact.get("driver").asText(), l4Fact::toString);
      assertEquals("12.6", l4Fact.get("cuda").asText(), l4Fact::toString);
      for (Path root : List.of(h100, l4)) {
        assertEquals(
            "onprem",
            new ObjectMapper().readTree(root.resolve(fact).toFile()).get("cluster").asText());
        assertEquals(
            List.of("NCCL_DEBUG=WARN", "NCCL_SOCKET_IFNAME==eth0"),
            settings(root.resolve("etc/nccl.conf")));
        assertTrue(
            settings(root.resolve("etc/apt/preferences.d/gpugen-nvidia-container-toolkit.pref"))
                .contains("Pin: version 1.18.1-*"));
      }
      // fabric: infiniband: nvidia-peermem loads at boot where OFED is, DMA-BUF serves elsewhere.
      assertEquals(
          List.of("nvidia-peermem"),
          settings(h100.resolve("etc/modules-load.d/nvidia-peermem.conf")));
      assertFalse(Files.exists(l4.resolve("etc/modules-load.d/nvidia-peermem.conf")));
      assertTrue(Files.exists(dir.resolve("reports/gpu-node-01.json")));
      assertTrue(Files.exists(dir.resolve("reports/infer-01.lab.example.com.json")));

      // The rendered files are as gpugen wrote them: the runs only added reports/ and .cache/.
      Map<String, byte[]> after = Golden.read(dir);
      after.keySet().removeIf(p -> p.startsWith("reports/") || p.startsWith(".cache/"));
      assertEquals(before.keySet(), after.keySet());
      before.forEach(
          (path, bytes) -> assertTrue(java.util.Arrays.equals(bytes, after.get(path)), path));
    } finally {
      TestRoot.delete(h100);
      TestRoot.delete(l4);
    }
  }

  /**
   * Play 05 for real, on roots where stand-ins play an 8 x H100 node (nvidia-smi, dcgmi, gpu-burn,
   * all_reduce_perf, the packages in dpkg's status, 32 EFA devices in /sys): the report, the
   * comparisons and the failure path run through Ansible. Below the spec's 350 GB/s the node must
   * fail with the measured figure; above it, pass. The two nodes are hosts of one run, each on its
   * own root. Only the network steps are skipped.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void validationReportsTheFiguresAndFailsANodeBelowTheBandwidthThreshold() throws Exception {
    Path dir = RenderedCase.render("reference", tmp.resolve("render")).ansible();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    Path passing = TestRoot.fresh(tmp.resolve("passing"));
    try {
      installStandIns(root, "312.40");
      // GDRCopy's gdrdrv is not loaded on the slow node: the report says so and fails it.
      Files.delete(root.resolve("dev/gdrdrv"));
      Files.delete(root.resolve("sys/module/gdrdrv"));
      installStandIns(passing, "391.35");
      // Each node alone in its NCCL group (as nodes of one pool in two placement groups), so
      // neither runs the multi-node test, as a single node does not.
      Path inventory =
          Files.writeString(
              tmp.resolve("inventory.yml"),
              "all:\n  children:\n    gpu_nodes:\n      hosts:\n"
                  + "        stand-in-node: {ansible_connection: community.general.chroot,"
                  + " ansible_host: \""
                  + root
                  + "\", gpugen_live_host: true, validation_nccl_group: slow}\n"
                  + "        passing-node: {ansible_connection: community.general.chroot,"
                  + " ansible_host: \""
                  + passing
                  + "\", gpugen_live_host: true, validation_nccl_group: fast}\n"
                  + "    pool_h100:\n      hosts:\n        stand-in-node:\n        passing-node:\n");
      List<String> cmd =
          List.of(
              "ansible-playbook",
              "-i",
              inventory.toString(),
              "--skip-tags",
              "network,reboot,kubernetes,helm",
              "05-validation.yml");
      RealTools.Result run = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
      assertNotEquals(0, run.exitCode(), run.output());
      assertEquals(1, RealTools.recap(run.output(), "stand-in-node").get("failed"), run.output());
      assertTrue(
          run.output()
              .contains(
                  "nccl_all_reduce: measured 312.4 GB/s busbw at 8589934592 B, 0 wrong (exit 0),"
                      + " expected busbw >= 350 GB/s at 8G, network Libfabric."),
          run.output());
      JsonNode report =
          new ObjectMapper().readTree(dir.resolve("reports/stand-in-node.json").toFile());
      assertFalse(report.get("passed").asBoolean(), report::toString);
      JsonNode checks = report.get("checks");
      for (String check :
          List.of(
              "driver_version",
              "gpu_count",
              "cuda_toolkit",
              "container_toolkit",
              "efa_interfaces",
              "gpu_burn",
              "dcgm_diag")) {
        assertEquals("pass", checks.get(check).get("status").asText(), check + ": " + checks);
      }
      assertEquals("fail", checks.get("gdrdrv").get("status").asText(), checks::toString);
      assertEquals("fail", checks.get("nccl_all_reduce").get("status").asText(), checks::toString);
      assertTrue(
          run.output()
              .contains(
                  "gdrdrv: measured gdrdrv not loaded, /dev/gdrdrv missing, expected gdrdrv"
                      + " loaded, /dev/gdrdrv a character device."),
          run.output());
      assertEquals(312.4, checks.get("nccl_all_reduce").get("busbw_gbps").asDouble(), 1e-9);
      assertEquals("skipped", checks.get("nccl_all_reduce_multi_node").get("status").asText());
      // storage.lustre: the mount check is in the report, skipped with the network steps.
      assertEquals("skipped", checks.get("lustre_mount").get("status").asText(), checks::toString);
      assertTrue(run.output().contains("stand-in-node                    FAIL"), run.output());
      String fact = "etc/ansible/facts.d/gpugen.fact";
      assertFalse(Files.exists(root.resolve(fact)), "a failed validation records no time");

      Map<String, Integer> passed = RealTools.recap(run.output(), "passing-node");
      assertEquals(0, passed.get("failed"), run.output());
      assertEquals(0, passed.get("unreachable"), run.output());
      report = new ObjectMapper().readTree(dir.resolve("reports/passing-node.json").toFile());
      assertTrue(report.get("passed").asBoolean(), report::toString);
      assertEquals("pass", report.get("checks").get("gdrdrv").get("status").asText());
      assertEquals(
          391.35, report.get("checks").get("nccl_all_reduce").get("busbw_gbps").asDouble(), 1e-9);
      // Only a passing validation records its time in the baseline fact.
      String validatedAt =
          new ObjectMapper().readTree(passing.resolve(fact).toFile()).get("validated_at").asText();
      assertTrue(validatedAt.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z"), validatedAt);
    } finally {
      TestRoot.delete(root);
      TestRoot.delete(passing);
    }
  }

  /**
   * Per-pool thresholds reach the nodes through each pool's group vars: with the aws-mixed
   * example's A100 pool at 200 GB/s and H100 pool at 350 GB/s, two stand-in nodes that both measure
   * 280 GB/s get opposite verdicts, each with its own pool's threshold in the report and message.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void eachPoolsNodeIsJudgedOnItsOwnPoolsBandwidthThreshold() throws Exception {
    Path dir = RenderedCase.render("aws-mixed", tmp.resolve("render")).ansible();
    Path a100 = TestRoot.fresh(tmp.resolve("a100"));
    Path h100 = TestRoot.fresh(tmp.resolve("h100"));
    try {
      installStandIns(a100, "280.00", 4); // p4d.24xlarge: 4 EFA network cards
      installStandIns(h100, "280.00", 32); // p5.48xlarge: 32
      Path inventory =
          Files.writeString(
              tmp.resolve("inventory.yml"),
              "all:\n  children:\n    gpu_nodes:\n      hosts:\n"
                  + "        a100-node: {ansible_connection: community.general.chroot,"
                  + " ansible_host: \""
                  + a100
                  + "\", gpugen_live_host: true}\n"
                  + "        h100-node: {ansible_connection: community.general.chroot,"
                  + " ansible_host: \""
                  + h100
                  + "\", gpugen_live_host: true}\n"
                  + "    pool_a100:\n      hosts:\n        a100-node:\n"
                  + "    pool_h100:\n      hosts:\n        h100-node:\n");
      RealTools.Result r =
          RealTools.run(
              dir,
              RUN_TIMEOUT,
              RealTools.YAML_INVENTORY,
              List.of(
                  "ansible-playbook",
                  "-i",
                  inventory.toString(),
                  "--skip-tags",
                  "network,reboot,kubernetes,helm",
                  // Two hosts would also run all_reduce_perf across them over MPI, which needs
                  // real nodes that reach each other; this test is about the single-node verdict.
                  "-e",
                  "validation_nccl_multi_node=false",
                  "05-validation.yml"));
      assertNotEquals(0, r.exitCode(), r.output());
      assertEquals(0, RealTools.recap(r.output(), "a100-node").get("failed"), r.output());
      assertEquals(1, RealTools.recap(r.output(), "h100-node").get("failed"), r.output());
      assertTrue(
          r.output()
              .contains(
                  "nccl_all_reduce: measured 280.0 GB/s busbw at 8589934592 B, 0 wrong (exit 0),"
                      + " expected busbw >= 350 GB/s at 8G, network Libfabric."),
          r.output());

      JsonNode passed = new ObjectMapper().readTree(dir.resolve("reports/a100-node.json").toFile());
      assertTrue(passed.get("passed").asBoolean(), passed::toString);
      JsonNode a100Check = passed.get("checks").get("nccl_all_reduce");
      assertEquals("pass", a100Check.get("status").asText(), a100Check::toString);
      assertTrue(
          a100Check.get("expected").asText().startsWith("busbw >= 200 GB/s"), a100Check::toString);
      assertEquals("pass", passed.get("checks").get("efa_interfaces").get("status").asText());

      JsonNode failed = new ObjectMapper().readTree(dir.resolve("reports/h100-node.json").toFile());
      assertFalse(failed.get("passed").asBoolean(), failed::toString);
      JsonNode h100Check = failed.get("checks").get("nccl_all_reduce");
      assertEquals("fail", h100Check.get("status").asText(), h100Check::toString);
      assertEquals(280.0, h100Check.get("busbw_gbps").asDouble(), 1e-9);
      assertTrue(
          h100Check.get("expected").asText().startsWith("busbw >= 350 GB/s"), h100Check::toString);
      // Only the node that passed records its validation time.
      String fact = "etc/ansible/facts.d/gpugen.fact";
      assertTrue(
          new ObjectMapper().readTree(a100.resolve(fact).toFile()).has("validated_at"),
          "the A100 node passed");
      assertFalse(Files.exists(h100.resolve(fact)), "the H100 node failed");
    } finally {
      TestRoot.delete(a100);
      TestRoot.delete(h100);
    }
  }

  /** Puts the stand-ins of an 8 x H100 node (32 EFA devices) into a test root. */
  private static void installStandIns(Path root, String busbw) throws Exception {
    installStandIns(root, busbw, 32);
  }

  /**
   * Puts the stand-ins of src/test/resources/ansible-stand-ins into a test root: eight GPUs on
   * driver 580.95.05, the given all-reduce bus bandwidth, and {@code efaDevices} EFA devices.
   */
  static void installStandIns(Path root, String busbw, int efaDevices) throws Exception {
    Path src = Golden.repo().resolve("src/test/resources/ansible-stand-ins");
    Path work = root.resolve("var/cache/gpugen/validation");
    executable(
        root.resolve("usr/local/bin/nvidia-smi"), Files.readString(src.resolve("nvidia-smi")));
    executable(root.resolve("usr/local/bin/dcgmi"), Files.readString(src.resolve("dcgmi")));
    executable(work.resolve("gpu-burn/gpu_burn"), Files.readString(src.resolve("gpu_burn")));
    executable(
        work.resolve("nccl-tests/build/all_reduce_perf"),
        Files.readString(src.resolve("all_reduce_perf.template")).replace("BUSBW", busbw));
    // The checkouts' Makefiles, with targets that are already up to date; the test root has
    // no make, so the host's (the same Debian release) is copied in.
    Files.writeString(work.resolve("gpu-burn/Makefile"), "gpu_burn:\n\ttrue\n");
    Files.createDirectories(work.resolve("nccl-tests/src"));
    Files.writeString(
        work.resolve("nccl-tests/src/Makefile"), "../build/all_reduce_perf:\n\ttrue\n");
    Files.copy(
        Path.of("/usr/bin/make"),
        root.resolve("usr/bin/make"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
    String status = Files.readString(root.resolve("var/lib/dpkg/status"));
    if (!status.contains("Package: cuda-toolkit-12-8\n")) {
      Files.writeString(
          root.resolve("var/lib/dpkg/status"),
          status.stripTrailing() + "\n" + Files.readString(src.resolve("dpkg-status")));
    }
    for (int i = 0; i < efaDevices; i++) {
      Files.createDirectories(root.resolve("sys/class/infiniband/rdmap" + i));
    }
    gdrdrvLoaded(root);
  }

  /**
   * What play 04's GDRCopy leaves on a live EFA node: the gdrdrv module loaded (/sys/module/gdrdrv)
   * and its character device /dev/gdrdrv (a node made by mknod here; tests run as root for chroot).
   */
  static void gdrdrvLoaded(Path root) throws Exception {
    Files.createDirectories(root.resolve("sys/module/gdrdrv"));
    Path dev = root.resolve("dev/gdrdrv");
    Files.createDirectories(dev.getParent());
    if (!Files.exists(dev)) {
      RealTools.run(
              Path.of("/"),
              Duration.ofSeconds(30),
              Map.of(),
              List.of("mknod", "-m", "666", dev.toString(), "c", "1", "3"))
          .assertOk();
    }
  }

  /** Writes an executable script, mode 0755. */
  static void executable(Path file, String text) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /**
   * Two copies of the converged reference node, checked by one run of each tool (start-up paid
   * once, the hosts in parallel): {@code configured} as site.yml left it, {@code testhost} with
   * NCCL's settings edited by hand. Each has its own root, so neither's findings can hide the
   * other's.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aConfiguredNodeChecksCleanAndDriftFindsAHandEditedNcclConf() throws Exception {
    Converged site = reference();
    Path spec = tmp.resolve("render/spec.yaml");
    Path dir = site.render(tmp.resolve("ran"));
    Path clean = site.root("testhost", tmp.resolve("clean"));
    Path root = site.root("testhost", tmp.resolve("root"));
    try {
      Map<String, Path> roots = new LinkedHashMap<>();
      roots.put("configured", clean);
      roots.put("testhost", root);
      Path inventory =
          inventory(
              roots, new TreeMap<>(Map.of("configured", "pool_h100", "testhost", "pool_h100")));
      assertEquals(0, site.first("testhost").get("failed"));
      for (Path node : roots.values()) {
        // As play 05 leaves it after a passing validation (to_nice_json's layout): a run of the
        // same spec keeps the time, so check mode must find nothing to change in the fact either.
        Path fact = node.resolve("etc/ansible/facts.d/gpugen.fact");
        RealTools.run(
                tmp,
                RUN_TIMEOUT,
                Map.of(),
                List.of(
                    "python3",
                    "-c",
                    "import json, sys; p = sys.argv[1]; d = json.load(open(p));"
                        + " d['validated_at'] = '2026-01-02T03:04:05Z';"
                        + " open(p, 'w').write(json.dumps(d, sort_keys=True, indent=2,"
                        + " separators=(',', ': ')) + '\\n')",
                    fact.toString()))
            .assertOk();
      }
      // Someone edits NCCL's settings by hand on testhost.
      Path conf = root.resolve("etc/nccl.conf");
      Files.writeString(conf, Files.readString(conf).replace("NCCL_DEBUG=WARN", "NCCL_DEBUG=INFO"));

      Map<String, String> trees = facts(dir, inventory);
      Cli inSync =
          Cli.run("drift", spec.toString(), "--no-cloud", "--facts", trees.get("configured"));
      assertEquals(0, inSync.exit(), inSync.toString());
      assertTrue(inSync.out().contains("in sync"), inSync.toString());

      String tree = trees.get("testhost");
      Cli drifted = Cli.run("drift", spec.toString(), "--no-cloud", "--facts", tree);
      assertEquals(
          1, drifted.exit(), drifted + Files.readString(Path.of(tree).resolve("testhost")));
      assertTrue(
          drifted.out().contains("testhost             nccl-conf        expected "),
          drifted.toString());
      assertTrue(drifted.out().contains("1 difference(s)"), drifted.toString());
      // The live fact reports the variables, so drift says which one changed.
      assertTrue(
          drifted.out().contains("found NCCL_DEBUG is INFO on the node, WARN in the spec\n"),
          drifted.toString());

      RealTools.Result check = check(dir, inventory);
      RenderedCase.assertExit(0, check);
      // Every task is check-mode safe: a configured node reports nothing to change.
      Map<String, Integer> recap = RealTools.recap(check.output(), "configured");
      assertEquals(0, recap.get("changed"), check.output());
      assertEquals(0, recap.get("failed"), check.output());
      // ... and check mode shows the drift as a diff, without repairing it.
      assertEquals(1, RealTools.recap(check.output(), "testhost").get("changed"), check.output());
      assertTrue(check.output().contains("-NCCL_DEBUG=INFO"), check.output());
      assertTrue(check.output().contains("+NCCL_DEBUG=WARN"), check.output());
      assertTrue(Files.readString(conf).contains("NCCL_DEBUG=INFO"), "check mode changed nothing");
    } finally {
      TestRoot.delete(clean);
      TestRoot.delete(root);
    }
  }

  /** {@code ansible-playbook site.yml --check --diff}, the tags a chroot cannot run skipped. */
  private static RealTools.Result check(Path dir, Path inventory) throws Exception {
    return RealTools.run(
        dir,
        RUN_TIMEOUT,
        RealTools.YAML_INVENTORY,
        List.of(
            "ansible-playbook",
            "-i",
            inventory.toString(),
            "--skip-tags",
            SKIPPED_TAGS,
            "--check",
            "--diff",
            "site.yml"));
  }

  /**
   * The nodes' local facts as the README tells operators to collect them, one run for all hosts;
   * returns a folder per host holding that host's file alone, for a drift run of its own.
   */
  private Map<String, String> facts(Path dir, Path inventory) throws Exception {
    Path tree = Files.createTempDirectory(tmp, "facts");
    RealTools.Result r =
        RealTools.run(
            dir,
            RUN_TIMEOUT,
            RealTools.YAML_INVENTORY,
            List.of(
                "ansible",
                "gpu_nodes",
                "-i",
                inventory.toString(),
                "-m",
                "ansible.builtin.setup",
                "-a",
                "filter=ansible_local",
                "--tree",
                tree.toString()));
    RenderedCase.assertExit(0, r);
    Map<String, String> out = new TreeMap<>();
    try (var files = Files.list(tree)) {
      for (Path f : files.toList()) {
        Path own = Files.createDirectories(tmp.resolve("facts-" + f.getFileName()));
        out.put(
            f.getFileName().toString(),
            Files.move(f, own.resolve(f.getFileName())).getParent().toString());
      }
    }
    return out;
  }

  /** One host per chroot root, in gpu_nodes and in its pool's group, written to a file. */
  private Path inventory(Map<String, Path> roots, Map<String, String> pools) throws Exception {
    return Files.writeString(tmp.resolve("inventory.yml"), inventoryText(roots, pools));
  }

  /** One host per chroot root, in gpu_nodes and in its pool's group. */
  private static String inventoryText(Map<String, Path> roots, Map<String, String> pools) {
    // YAML: the rendered ansible.cfg enables the yaml plugin, not ini.
    StringBuilder b = new StringBuilder("all:\n  children:\n    gpu_nodes:\n      hosts:\n");
    roots.forEach(
        (host, root) ->
            b.append("        ")
                .append(host)
                .append(": {ansible_connection: community.general.chroot, ansible_host: \"")
                .append(root)
                .append("\", ")
                .append(LUSTRE_HOST_VARS)
                .append("}\n"));
    // One entry per group (a repeated key would leave only its last host in the group).
    Map<String, List<String>> groups = new TreeMap<>();
    pools.forEach((host, group) -> groups.computeIfAbsent(group, g -> new ArrayList<>()).add(host));
    groups.forEach(
        (group, hosts) -> {
          b.append("    ").append(group).append(":\n      hosts:\n");
          hosts.forEach(host -> b.append("        ").append(host).append(":\n"));
        });
    return b.toString();
  }

  /** The lines of a config file that are not comments. */
  private static List<String> settings(Path file) throws Exception {
    return Files.readAllLines(file).stream().filter(l -> !l.startsWith("#")).toList();
  }
}
