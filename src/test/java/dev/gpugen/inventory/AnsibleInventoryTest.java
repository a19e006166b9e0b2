package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.TestSpecs;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.render.Renderer;
import dev.gpugen.render.Templates;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real ansible-core runs the rendered {@code gpugen-inventory} script (the template's exact text)
 * against the stand-in: {@code ansible-inventory --list/--graph} accept the output without
 * warnings, {@code ansible-playbook} sees the hosts, and with EC2 down the playbook fails.
 *
 * <p>Needs Debian's {@code ansible} package; a machine without it fails this test rather than
 * skipping it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@RealToolsTest
class AnsibleInventoryTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int FLEET = 12;

  @TempDir static Path tmp;
  private Ec2StandIn standIn;
  private Path script;
  private Map<String, String> env;

  record Result(int code, String out, String err) {}

  @BeforeAll
  void setUp() throws Exception {
    if (which("ansible-inventory") == null || which("ansible-playbook") == null) {
      fail("ansible-core is not installed: run scripts/install-test-deps");
    }
    standIn = Ec2StandIn.start();
    standIn.addAll(Fleet.cluster(FLEET)).addAll(Fleet.noise(FLEET, 10));

    Path dir = Files.createDirectories(tmp.resolve("ansible"));
    script = dir.resolve("gpugen-inventory");
    Files.writeString(script, renderedScript());
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.copy(StandIns.SMALL_FLEET_CONFIG, dir.resolve("gpugen-inventory.json"));
    Files.writeString(
        dir.resolve("site.yml"),
        "- name: Show the nodes.\n"
            + "  hosts: gpu_nodes\n"
            + "  gather_facts: false\n"
            + "  tasks:\n"
            + "    - name: Show the pool and the expected driver.\n"
            + "      ansible.builtin.debug:\n"
            + "        msg: \"{{ gpugen_pool }} {{ gpugen_expected_driver }}\"\n");

    env = new HashMap<>();
    env.put(
        "PATH",
        Path.of(System.getProperty("java.home"), "bin")
            + File.pathSeparator
            + System.getenv("PATH"));
    env.put("HOME", Files.createDirectories(tmp.resolve("home")).toString());
    env.put("LANG", "C.UTF-8");
    env.put("ANSIBLE_NOCOLOR", "1");
    // What the generated ansible.cfg sets: an inventory that fails must fail the run.
    env.put("ANSIBLE_INVENTORY_UNPARSED_FAILED", "true");
    env.put("GPUGEN_JAR", testJar().toString());
    env.put("GPUGEN_EC2_ENDPOINT", standIn.endpoint().toString());
    env.put("GPUGEN_CACHE_DIR", tmp.resolve("cache").toString());
    env.put("GPUGEN_MAX_ATTEMPTS", "2");
    env.put("GPUGEN_API_CALL_TIMEOUT_SECONDS", "10");
    env.put("AWS_ACCESS_KEY_ID", Ec2StandIn.ACCESS_KEY_ID);
    env.put("AWS_SECRET_ACCESS_KEY", "secret");
    env.put("AWS_EC2_METADATA_DISABLED", "true");
  }

  @AfterAll
  void tearDown() {
    if (standIn != null) {
      standIn.close();
    }
  }

  /** The script exactly as gpugen renders it into ansible/ (the same for every AWS spec). */
  private static String renderedScript() throws Exception {
    ClusterSpec spec =
        TestSpecs.read(Path.of("examples/aws-h100/cluster.yaml"), java.util.Optional.empty());
    RenderedTree tree =
        new Renderer(Templates.load(java.util.Optional.empty()))
            .render(dev.gpugen.TestSpecs.plan(spec), "cluster.yaml");
    RenderedTree.File file = tree.files().get("ansible/gpugen-inventory");
    assertTrue(file.executable(), "rendered with mode 0755");
    return new String(file.content(), StandardCharsets.UTF_8);
  }

  private Path testJar() throws IOException {
    return StandIns.testJar(tmp);
  }

  private Result exec(Map<String, String> extra, String... command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(script.getParent().toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    pb.environment().putAll(extra);
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = RealTools.start(pb);
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail(String.join(" ", command) + " did not finish in 180 s");
    }
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static Set<String> texts(JsonNode array) {
    Set<String> values = new TreeSet<>();
    array.forEach(n -> values.add(n.asText()));
    return values;
  }

  private static Set<String> fleetNames() {
    Set<String> names = new TreeSet<>();
    for (Ec2StandIn.Instance i : Fleet.cluster(FLEET)) {
      names.add(i.tags().get("Name"));
    }
    return names;
  }

  @Test
  @Order(1)
  void ansibleInventoryListAcceptsTheOutputWithoutWarnings() throws Exception {
    Result r = exec(Map.of(), "ansible-inventory", "-i", script.toString(), "--list");
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err().strip(), "ansible printed warnings or errors");
    JsonNode root = JSON.readTree(r.out());
    assertEquals(fleetNames(), texts(root.path("gpu_nodes").path("hosts")));
    assertEquals(8, root.path("pool_a100_train").path("hosts").size());
    assertEquals(4, root.path("pool_h100_infer").path("hosts").size());
    assertEquals(3, root.path("spot").path("hosts").size());
    assertEquals(4, root.path("az_us_east_1a").path("hosts").size());
    assertEquals(8, root.path("type_p4d_24xlarge").path("hosts").size());
    JsonNode vars = root.path("_meta").path("hostvars").path("demo-h100-infer-00002");
    assertEquals("560.35.03", vars.path("gpugen_expected_driver").asText());
    assertEquals("h100-infer", vars.path("gpugen_pool").asText());
    assertTrue(vars.path("ansible_host").asText().startsWith("10.0."));
    assertFalse(r.out().contains("noise-"), "foreign instances never appear");
    assertTrue(root.path("all").path("children").toString().contains("gpu_nodes"));
  }

  @Test
  @Order(2)
  void ansibleInventoryGraphShowsTheGroups() throws Exception {
    Result r = exec(Map.of(), "ansible-inventory", "-i", script.toString(), "--graph");
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err().strip());
    for (String group :
        List.of("@gpu_nodes:", "@pool_a100_train:", "@pool_h100_infer:", "@on_demand:", "@spot:")) {
      assertTrue(r.out().contains(group), group + " in\n" + r.out());
    }
    assertTrue(r.out().contains("|--demo-a100-train-00000"), r.out());
  }

  @Test
  @Order(3)
  void ansiblePlaybookSeesTheHosts() throws Exception {
    Result r = exec(Map.of(), "ansible-playbook", "-i", script.toString(), "site.yml");
    assertEquals(0, r.code(), r.out() + r.err());
    for (String name : fleetNames()) {
      assertTrue(r.out().contains("ok: [" + name + "]"), name + " in\n" + r.out());
    }
    assertTrue(r.out().contains("a100-train 550.90.07"), r.out());
    assertFalse(r.out().contains("noise-"));
  }

  @Test
  @Order(3)
  void keyedGroupsAndTheHostnamesPreferenceReachAnsible() throws Exception {
    Files.writeString(
        script.getParent().resolve("keyed.yml"),
        "- name: Show the nodes of the keyed group.\n"
            + "  hosts: env_prod\n"
            + "  gather_facts: false\n"
            + "  tasks:\n"
            + "    - name: Show the instance id.\n"
            + "      ansible.builtin.debug:\n"
            + "        msg: \"{{ gpugen_instance_id }} at {{ ansible_host }}\"\n");
    Map<String, String> settings =
        Map.of(
            "GPUGEN_KEYED_GROUPS", "[{\"tag\": \"gpugen:environment\", \"prefix\": \"env\"}]",
            "GPUGEN_HOSTNAMES", "private-dns-name,instance-id",
            "GPUGEN_CACHE_TTL_SECONDS", "0");
    Result graph = exec(settings, "ansible-inventory", "-i", script.toString(), "--graph");
    assertEquals(0, graph.code(), graph.err());
    assertEquals("", graph.err().strip());
    assertTrue(graph.out().contains("@env_prod:"), graph.out());
    Result r = exec(settings, "ansible-playbook", "-i", script.toString(), "keyed.yml");
    assertEquals(0, r.code(), r.out() + r.err());
    for (Ec2StandIn.Instance i : Fleet.cluster(FLEET)) {
      assertTrue(
          r.out().contains("ok: [" + i.privateDns() + "]"), i.privateDns() + " in\n" + r.out());
      assertTrue(r.out().contains(i.instanceId() + " at " + i.privateIp()), r.out());
    }
    assertFalse(r.out().contains("noise-"));
  }

  /** The render writes the image's login user; every host logs in as it over SSH. */
  @Test
  @Order(3)
  void theLoginUserReachesEveryHost() throws Exception {
    Files.writeString(
        script.getParent().resolve("user.yml"),
        "- name: Show the login user.\n"
            + "  hosts: gpu_nodes\n"
            + "  gather_facts: false\n"
            + "  tasks:\n"
            + "    - name: Show the user Ansible logs in as.\n"
            + "      ansible.builtin.debug:\n"
            + "        msg: \"login {{ ansible_user }}\"\n");
    Map<String, String> settings = Map.of("GPUGEN_USER", "ubuntu", "GPUGEN_CACHE_TTL_SECONDS", "0");
    Result r = exec(settings, "ansible-playbook", "-i", script.toString(), "user.yml");
    assertEquals(0, r.code(), r.out() + r.err());
    int hosts = fleetNames().size();
    assertEquals(hosts, r.out().split("\"msg\": \"login ubuntu\"", -1).length - 1, r.out());
    Result without =
        exec(
            Map.of("GPUGEN_CACHE_TTL_SECONDS", "0"),
            "ansible-inventory",
            "-i",
            script.toString(),
            "--list");
    assertEquals(0, without.code(), without.err());
    assertFalse(without.out().contains("ansible_user"), "no user setting, no ansible_user");
  }

  @Test
  @Order(4)
  void withEc2DownThePlaybookFails() throws Exception {
    standIn.close();
    Result r =
        exec(
            Map.of("GPUGEN_CACHE_TTL_SECONDS", "0"),
            "ansible-playbook",
            "-i",
            script.toString(),
            "site.yml");
    assertNotEquals(0, r.code(), r.out() + r.err());
    String all = (r.out() + r.err()).replaceAll("\\s+", " ");
    assertTrue(all.contains("cannot connect to endpoint"), all);
    assertFalse(all.contains("ok: ["), all);
  }

  /**
   * A successful run's warnings (an EC2 value dropped) are not printed by Ansible as "[ERROR]"
   * under the rendered ansible.cfg, and gpugen-inventory run by hand still shows them.
   */
  @Test
  @Order(3)
  void underTheRenderedAnsibleCfgAWarningIsNoError() throws Exception {
    try (Ec2StandIn own = Ec2StandIn.start()) {
      own.addAll(Fleet.cluster(3));
      Map<String, String> hostile = Fleet.tags(Fleet.CLUSTER, Fleet.ENVIRONMENT, "a100-train", "x");
      hostile.put("Name", "{{ lookup('pipe', 'id') }}");
      own.add(Ec2StandIn.Instance.of(Fleet.id(900), "p4d.24xlarge", "us-east-1a", hostile));
      Path dir = Files.createDirectories(tmp.resolve("with-cfg"));
      Files.copy(script, dir.resolve("gpugen-inventory"));
      Files.copy(StandIns.SMALL_FLEET_CONFIG, dir.resolve("gpugen-inventory.json"));
      Files.writeString(dir.resolve("ansible.cfg"), renderedFile("ansible/ansible.cfg"));
      Map<String, String> extra =
          Map.of(
              "GPUGEN_EC2_ENDPOINT",
              own.endpoint().toString(),
              "GPUGEN_CACHE_DIR",
              tmp.resolve("cache-with-cfg").toString(),
              "ANSIBLE_INVENTORY_UNPARSED_FAILED",
              "true");
      Result listed = execIn(dir, extra, "ansible-inventory", "--list");
      assertEquals(0, listed.code(), listed.err());
      assertFalse(listed.err().contains("[ERROR]"), listed.err());
      // The tag is dropped, the host stays (named by its instance id).
      assertEquals(4, JSON.readTree(listed.out()).path("gpu_nodes").path("hosts").size());
      assertFalse(listed.out().contains("lookup"), listed.out());
      Result byHand = execIn(dir, extra, "./gpugen-inventory", "--list");
      assertEquals(0, byHand.code(), byHand.err());
      assertTrue(byHand.err().contains("gpugen inventory: warning: "), byHand.err());
      // Without the setting, Ansible shows the same warning as an error: what it turns off.
      Map<String, String> shown = new HashMap<>(extra);
      shown.put("ANSIBLE_INVENTORY_PLUGIN_SCRIPT_STDERR", "true");
      Result loud = execIn(dir, shown, "ansible-inventory", "--list");
      assertTrue(loud.err().contains("[ERROR]: gpugen inventory: warning: "), loud.err());
    }
  }

  private static String renderedFile(String path) throws Exception {
    ClusterSpec spec =
        TestSpecs.read(Path.of("examples/aws-h100/cluster.yaml"), java.util.Optional.empty());
    RenderedTree tree =
        new Renderer(Templates.load(java.util.Optional.empty()))
            .render(dev.gpugen.TestSpecs.plan(spec), "cluster.yaml");
    return new String(tree.files().get(path).content(), StandardCharsets.UTF_8);
  }

  private Result execIn(Path dir, Map<String, String> extra, String... command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    pb.environment().remove("ANSIBLE_CONFIG");
    pb.environment().putAll(extra);
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = RealTools.start(pb);
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail(String.join(" ", command) + " did not finish in 180 s");
    }
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static String which(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, program);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }
}
