package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.TestSpecs;
import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.render.TerraformCases.Case;
import dev.gpugen.spec.AnsibleMode;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Internet;
import dev.gpugen.spec.Placement;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.PullSource;
import dev.gpugen.spec.Sha256;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TerraformPlan;
import dev.gpugen.testing.TerraformTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every AWS golden and example render, initialised with the real hashicorp/aws provider binary
 * (filesystem mirror) and planned by {@code terraform test} with {@code mock_provider "aws"}: the
 * plan must succeed (the provider validates every resource) and the assertions below, computed from
 * the spec and the compatibility table rather than from the render, must hold. Every render (GKE
 * included) must also pass {@code terraform fmt -check}.
 *
 * <p>The .tf files are the same for every spec of a provider, so the cases share their work: the
 * renders whose .tf files (but moved.tf and backend.tf, which a plan from empty state and {@code
 * init -backend=false} do not read) have the same digest get one {@code terraform init} and one
 * {@code terraform test}, a run per case whose {@code variables} are that case's
 * terraform.tfvars.json. Each case stays its own JUnit test, judged by its run's result in {@code
 * terraform test -json}. No terraform.tfvars.json is written into the shared folder, so no case
 * sees another's values; pull-mode scripts are written under names of their own
 * (user-data-ID_POOL.sh, with the case's user_data_file set to match).
 */
@TerraformTest
class TerraformPlanTest {
  @TempDir static Path scratch;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Initialised folders by the digest of the .tf files they were initialised with. */
  private static final Map<String, TerraformPlan.Workspace> WORKSPACES = new ConcurrentHashMap<>();

  /** The outcome of every case's run, by case label; planned once, on first use. */
  private static Map<String, Outcome> outcomes;

  /** The files a plan from empty state reads: the .tf files but moved.tf and backend.tf. */
  static boolean shared(String path) {
    return path.endsWith(".tf") && !path.equals("moved.tf") && !path.equals("backend.tf");
  }

  private static String digest(SortedMap<String, String> files) {
    StringBuilder all = new StringBuilder();
    files.forEach(
        (path, text) -> {
          if (shared(path)) {
            all.append(path).append('\0').append(text).append('\0');
          }
        });
    return Sha256.hex(all.toString());
  }

  /** A folder initialised with the shared .tf files of {@code files}, one per distinct set. */
  static synchronized TerraformPlan.Workspace workspace(SortedMap<String, String> files)
      throws IOException, InterruptedException {
    String digest = digest(files);
    TerraformPlan.Workspace ws = WORKSPACES.get(digest);
    if (ws == null) {
      SortedMap<String, String> tf = new TreeMap<>(files);
      tf.keySet().removeIf(p -> !shared(p));
      ws = TerraformPlan.init(Files.createTempDirectory(scratch, "plan"), tf);
      WORKSPACES.put(digest, ws);
    }
    return ws;
  }

  /**
   * A pull-mode case's bundle: its render's ansible/ folder beside the shared terraform/ one, where
   * pull.tf's upload reads the files pull_bundle_files lists (a plan hashes each). Cases share the
   * folder: a path two renders write holds the later one's text, which no assertion reads.
   */
  static void bundle(TerraformPlan.Workspace ws, Case c) throws IOException {
    if (!c.read().ansible().pullMode()) {
      return;
    }
    for (Map.Entry<String, RenderedTree.File> f : c.render().files().entrySet()) {
      if (f.getKey().startsWith("ansible/")) {
        Path p = ws.dir().resolveSibling(f.getKey());
        Files.createDirectories(p.getParent());
        Files.write(p, f.getValue().content());
      }
    }
  }

  /**
   * A case's terraform.tfvars.json as it runs in a shared folder: its pull-mode scripts written
   * there as user-data-ID_POOL.sh, its pools' user_data_file naming them.
   */
  static ObjectNode variables(
      TerraformPlan.Workspace ws, String id, SortedMap<String, String> files) throws IOException {
    ObjectNode vars = (ObjectNode) JSON.readTree(files.get("terraform.tfvars.json"));
    for (JsonNode pool : vars.path("pools")) {
      if (pool.path("user_data_file").isTextual()) {
        String name = pool.path("user_data_file").asText();
        String own = "user-data-" + id + "_" + name.substring("user-data-".length());
        Files.writeString(ws.dir().resolve(own), files.get(name), StandardCharsets.UTF_8);
        ((ObjectNode) pool).put("user_data_file", own);
      }
    }
    return vars;
  }

  /** A JSON value as an HCL expression (run blocks take their variables in HCL). */
  static String hcl(JsonNode v) {
    if (v.isObject()) {
      List<String> entries = new ArrayList<>();
      v.properties()
          .forEach(
              e -> entries.add(TerraformPlan.hclString(e.getKey()) + " = " + hcl(e.getValue())));
      return "{ " + String.join(", ", entries) + " }";
    } else if (v.isArray()) {
      List<String> items = new ArrayList<>();
      v.forEach(i -> items.add(hcl(i)));
      return "[" + String.join(", ", items) + "]";
    } else if (v.isTextual()) {
      return TerraformPlan.hclString(v.asText());
    }
    return v.toString();
  }

  /** The {@code variables} block of a run: every value of a case's tfvars. */
  static String variablesBlock(ObjectNode vars) {
    StringBuilder b = new StringBuilder("  variables {\n");
    vars.properties()
        .forEach(
            e ->
                b.append("    ")
                    .append(e.getKey())
                    .append(" = ")
                    .append(hcl(e.getValue()))
                    .append('\n'));
    return b.append("  }\n\n").toString();
  }

  /** One run's result: pass or fail, what Terraform said about it, and the run as written. */
  record Outcome(String status, String diagnostics, String run) {}

  /** Every AWS case planned: one init and one terraform test per distinct set of .tf files. */
  static synchronized Map<String, Outcome> outcomes() throws Exception {
    if (outcomes != null) {
      return outcomes;
    }
    Map<String, List<Case>> groups = new TreeMap<>();
    Map<String, SortedMap<String, String>> filesOf = new TreeMap<>();
    List<Case> all = new ArrayList<>();
    for (Case c : cases()) {
      if (c.read().cloud().provider() == Provider.AWS) {
        all.add(c);
      }
    }
    MUTATIONS.forEach((id, m) -> all.add(new Case(MUTATION + id, m.spec(), Optional.empty())));
    for (Case c : all) {
      SortedMap<String, String> files = c.terraform();
      filesOf.put(c.label(), files);
      groups.computeIfAbsent(digest(files), k -> new ArrayList<>()).add(c);
    }
    Map<String, Outcome> out = new TreeMap<>();
    for (List<Case> group : groups.values()) {
      TerraformPlan.Workspace ws = workspace(filesOf.get(group.get(0).label()));
      StringBuilder file = new StringBuilder(PlanAssertions.MOCK);
      Map<String, String> labels = new TreeMap<>();
      Map<String, String> texts = new TreeMap<>();
      for (int i = 0; i < group.size(); i++) {
        Case c = group.get(i);
        SortedMap<String, String> files = filesOf.get(c.label());
        String run = "case_" + i;
        ObjectNode vars = variables(ws, "c" + i, files);
        bundle(ws, c);
        if (c.label().startsWith(MUTATION)) {
          MUTATIONS.get(c.label().substring(MUTATION.length())).edit().accept(c.read(), vars);
          // A mutation plans other node settings than the render accepted, from empty state:
          // the replacement guard would answer first (LifecycleTest plans the guard).
          vars.remove("accepted_node_settings");
        }
        String text =
            PlanAssertions.of(c.read(), Hcl2Json.parse(tfOnly(files)))
                .run(run, variablesBlock(vars));
        file.append('\n').append(text);
        labels.put(run, c.label());
        texts.put(run, text);
      }
      RealTools.Result r = ws.test("every_case", file.toString(), "-json");
      Map<String, String> status = new TreeMap<>();
      Map<String, StringBuilder> said = new TreeMap<>();
      for (String line : r.output().split("\n")) {
        if (!line.startsWith("{")) {
          continue;
        }
        JsonNode m = JSON.readTree(line);
        String run = m.path("@testrun").asText(m.path("test_run").path("run").asText(""));
        if (m.path("type").asText().equals("test_run")
            && m.path("test_run").path("progress").asText().equals("complete")) {
          status.put(run, m.path("test_run").path("status").asText());
        } else if (m.path("type").asText().equals("diagnostic")) {
          JsonNode d = m.path("diagnostic");
          said.computeIfAbsent(run, k -> new StringBuilder())
              .append(m.path("@message").asText())
              .append('\n')
              .append(d.path("detail").asText())
              .append('\n')
              .append(d.path("snippet").path("code").asText())
              .append("\n\n");
        }
      }
      labels.forEach(
          (run, label) ->
              out.put(
                  label,
                  new Outcome(
                      status.getOrDefault(run, "missing"),
                      said.getOrDefault(run, new StringBuilder())
                          + "(outside any run:)\n"
                          + said.getOrDefault("", new StringBuilder()),
                      texts.get(run))));
    }
    outcomes = out;
    return out;
  }

  static List<Case> cases() throws IOException {
    // -Dgpugen.planCases=aws-pull narrows a local run to matching cases (never set in CI).
    String only = System.getProperty("gpugen.planCases", "");
    return TerraformCases.all().stream().filter(c -> c.label().contains(only)).toList();
  }

  @TestFactory
  Stream<DynamicTest> everyAwsRenderPlansWithTheRealProvider() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Case c : cases()) {
      if (c.read().cloud().provider() == Provider.AWS) {
        tests.add(DynamicTest.dynamicTest(c.label() + ": terraform test (plan)", () -> plan(c)));
      }
    }
    assertTrue(
        tests.size() >= 8 || !System.getProperty("gpugen.planCases", "").isEmpty(),
        "AWS renders found: " + tests.size());
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> everyRenderIsTerraformFmtClean() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Case c : cases()) {
      if (c.read().cloud().provider() != Provider.STATIC) {
        tests.add(DynamicTest.dynamicTest(c.label() + ": terraform fmt -check", () -> fmt(c)));
      }
    }
    return tests.stream();
  }

  /** The label prefix of a mutation's run among the cases'. */
  private static final String MUTATION = "mutation ";

  /**
   * A case's tfvars edited so that some assertions must fail: each proves those assertions can.
   *
   * @param spec the spec rendered
   * @param edit the change to its terraform.tfvars.json
   */
  record Mutation(Path spec, BiConsumer<ClusterSpec, ObjectNode> edit) {}

  /** The mutations, by id; they plan in the same terraform test as the cases. */
  static final Map<String, Mutation> MUTATIONS =
      new TreeMap<>(
          Map.of(
              // One node more than the spec's, and SSH open to the whole internet.
              "count_and_ingress",
              new Mutation(
                  Path.of("src/test/resources/golden/aws-single-node/spec.yaml"),
                  (spec, vars) -> {
                    ClusterSpec.Pool pool = spec.pools().get(0);
                    ((ObjectNode) vars.path("pools").path(pool.name()).path("nodes"))
                        .put(Integer.toString(pool.count()), "one-more");
                    vars.putArray("ssh_ingress_cidrs").add("0.0.0.0/0");
                  }),
              // An admin dropped, the public endpoint opened to another range, a foreign label.
              "eks",
              new Mutation(
                  Path.of("src/test/resources/golden/aws-eks-pull/spec.yaml"),
                  (spec, vars) -> {
                    vars.putArray("eks_admin_arns")
                        .add(spec.kubernetes().orElseThrow().admins().get(0));
                    vars.putArray("eks_public_access_cidrs").add("192.0.2.0/24");
                    ((ObjectNode) vars.path("pools").path("h100").path("node_labels"))
                        .put("team", "other");
                  }),
              // One control-plane instance instead of the spec's three.
              "kubeadm",
              new Mutation(
                  Path.of("src/test/resources/golden/aws-kubeadm/spec.yaml"),
                  (spec, vars) -> vars.put("control_plane_count", 1)),
              // A placement group named otherwise than the plan names it.
              "placement",
              new Mutation(
                  Path.of("src/test/resources/golden/aws-two-pools-lustre/spec.yaml"),
                  (spec, vars) ->
                      ((ObjectNode) vars.path("pools").path("a100-ft"))
                          .put("placement_group", "elsewhere")),
              // The Capacity Block pool on demand with EFA asked of P6-B300's ENA-only card 0;
              // the reserved pool out of its reservation and into a placement group.
              "capacity",
              new Mutation(
                  Path.of("src/test/resources/golden/aws-capacity-block/spec.yaml"),
                  (spec, vars) -> {
                    ObjectNode b300 = (ObjectNode) vars.path("pools").path("b300");
                    b300.put("market", "on-demand");
                    ((ObjectNode) b300.path("network_interfaces").path(0))
                        .put("interface_type", "efa");
                    ObjectNode h100 = (ObjectNode) vars.path("pools").path("h100");
                    h100.remove("capacity_reservation_id");
                    h100.put("placement_group", "reserved-h100");
                  })));

  /** A mutation's run: it must fail, and what Terraform said, with line breaks folded. */
  private static String failure(String id) throws Exception {
    Outcome o = outcomes().get(MUTATION + id);
    assertEquals("fail", o.status(), o.run() + "\n" + o.diagnostics());
    return o.diagnostics().replaceAll("\\s+", " ");
  }

  /**
   * The assertions can fail: a render whose tfvars plan one node too many and open SSH to the whole
   * internet fails both, with their messages.
   */
  @Test
  void theAssertionsCatchAWrongCountAndOpenIngress() throws Exception {
    String said = failure("count_and_ingress");
    int count =
        TestSpecs.read(MUTATIONS.get("count_and_ingress").spec(), Optional.empty())
            .pools()
            .get(0)
            .count();
    assertTrue(
        said.contains("the spec asks for " + count + " instances")
            && said.contains("aws_vpc_security_group_ingress_rule.nodes_ssh must not open"),
        said);
  }

  /**
   * The EKS assertions can fail: tfvars that drop an admin, open the public endpoint to another
   * range and register the nodes with a label the spec does not have fail the plan with the
   * messages of those three checks.
   */
  @Test
  void theEksAssertionsCatchAMissingAdminAWrongEndpointAndAForeignLabel() throws Exception {
    String said = failure("eks");
    assertTrue(
        said.contains("one access entry per kubernetes.admins ARN")
            && said.contains("the public endpoint is open to publicCidrs only")
            && said.contains(
                "pool h100: the nodes join the EKS cluster at boot with the pool's labels and"
                    + " taints"),
        said);
  }

  /**
   * The kubeadm assertions can fail: tfvars that ask for one control-plane instance instead of the
   * spec's three fail the count and the load balancer checks.
   */
  @Test
  void theKubeadmAssertionsCatchAWrongControlPlane() throws Exception {
    String said = failure("kubeadm");
    assertTrue(
        said.contains("kubeadm: the spec asks for 3 control-plane instances")
            && said.contains("kubeadm with 3 control-plane instances: an internal NLB"),
        said);
  }

  /**
   * The placement assertions can fail: a placement group renamed in tfvars (as a plan that derived
   * it twice might name it) fails the check on its name.
   */
  @Test
  void thePlacementAssertionsCatchAForeignGroupName() throws Exception {
    assertTrue(
        failure("placement").contains("pool a100-ft: one cluster placement group"),
        failure("placement"));
  }

  /**
   * The capacity assertions can fail: the Capacity Block pool planned on demand, with an EFA
   * interface on P6-B300's card 0 (which has none), and the reserved pool out of its reservation
   * and in a placement group fail the market, interface, reservation and placement checks.
   */
  @Test
  void theCapacityAssertionsCatchAWrongMarketCardReservationAndGroup() throws Exception {
    String said = failure("capacity");
    assertTrue(
        said.contains("pool b300: market capacity-block on every instance")
            && said.contains(
                "pool b300: one EFA interface per network card (17 on p6-b300.48xlarge: ENA"
                    + " alone on card 0, efa-only on the others)")
            && said.contains("pool h100: capacity reservation \"cr-0fedcba9876543210\"")
            && said.contains("pool h100: a reserved pool gets no placement group of gpugen's"),
        said);
  }

  /**
   * src/test/terraform/reference.tftest.hcl: scenarios of the pools variable, the EFA interfaces
   * and the network checks (variables overridden per run) against the render of examples/aws-h100.
   */
  @Test
  void theReferenceScenariosPlanAsTheyExpect() throws Exception {
    Case c =
        new Case("examples/aws-h100", Path.of("examples/aws-h100/cluster.yaml"), Optional.empty());
    SortedMap<String, String> files = c.terraform();
    TerraformPlan.Workspace ws = workspace(files);
    // The example's values for every run (a file-level variables block), each run overriding some.
    // The scenarios plan from empty state, where no node can be replaced: without the render's
    // accepted node settings, a scenario's other subnet or placement is not refused
    // (NodeLifecycleTest plans the refusal).
    ObjectNode vars = variables(ws, "reference", files);
    vars.remove("accepted_node_settings");
    RealTools.Result r =
        ws.test(
            "reference",
            variablesBlock(vars).replace("\n  ", "\n").stripLeading()
                + Files.readString(
                    Path.of("src/test/terraform/reference.tftest.hcl"), StandardCharsets.UTF_8));
    assertTrue(r.exitCode() == 0 && r.output().contains(" 0 failed"), r.output());
    // A scenario setting a variable the render does not declare tests nothing it claims to.
    assertFalse(r.output().contains("Value for undeclared variable"), r.output());
  }

  private void fmt(Case c) throws Exception {
    Path dir = Files.createTempDirectory(scratch, "fmt");
    for (Map.Entry<String, String> f : c.terraform().entrySet()) {
      Path p = dir.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
    }
    TerraformPlan.fmtCheck(dir).assertOk();
  }

  private void plan(Case c) throws Exception {
    Outcome o = outcomes().get(c.label());
    if (!o.status().equals("pass")) {
      throw new AssertionError(
          c.label()
              + ": terraform test "
              + o.status()
              + "\n--- the run\n"
              + o.run()
              + "\n--- what Terraform said\n"
              + o.diagnostics());
    }
  }

  private static SortedMap<String, String> tfOnly(SortedMap<String, String> files) {
    SortedMap<String, String> out = new TreeMap<>(files);
    out.keySet().removeIf(n -> !n.endsWith(".tf"));
    return out;
  }

  /** The .tftest.hcl for one spec: mocks for the data sources, and the assertions. */
  static final class PlanAssertions {
    private final StringBuilder run = new StringBuilder();
    private boolean eks;
    private boolean kubeadm;

    private PlanAssertions() {}

    private ClusterSpec spec;

    /** The assertions for one spec; {@link #run} writes them as a run block. */
    static PlanAssertions of(ClusterSpec spec, Map<String, JsonNode> parsed) {
      PlanAssertions a = new PlanAssertions();
      a.spec = spec;
      CompatTable table = CompatTable.load();
      for (ClusterSpec.Pool pool : spec.pools()) {
        boolean efa = pool.fabric() == Fabric.EFA;
        String instances = instances(pool);
        String template = template(pool);
        a.check(
            "length(" + instances + ") == " + pool.count(),
            "pool " + pool.name() + ": the spec asks for " + pool.count() + " instances");
        a.check(
            template + ".metadata_options[0].http_tokens == \"required\"",
            "pool " + pool.name() + ": the launch template must require IMDSv2 tokens");
        a.check(
            "alltrue([for i in "
                + instances
                + " : i.metadata_options[0].http_tokens == \"required\"])",
            "pool " + pool.name() + ": every instance must require IMDSv2 tokens");
        a.check(
            "alltrue([for i in " + instances + " : i.root_block_device[0].encrypted == true])",
            "pool " + pool.name() + ": every root volume must be encrypted");
        // Capacity: a Capacity Block launches with market type capacity-block into its
        // reservation; a targeted On-Demand Capacity Reservation by its id; neither gets a
        // placement group of gpugen's (EC2 places a block's instances itself).
        String reservation =
            pool.capacityReservationId().map(cr -> "\"" + cr + "\"").orElse("null");
        a.check(
            "alltrue([for i in "
                + instances
                + " : jsonencode([for m in i.instance_market_options : m.market_type]) == jsonencode("
                + (pool.capacityBlock()
                    ? "[\"capacity-block\"]"
                    : pool.spot() ? "[\"spot\"]" : "[]")
                + ")])",
            "pool " + pool.name() + ": market " + pool.market() + " on every instance");
        a.check(
            "alltrue([for i in "
                + instances
                + " : jsonencode(flatten([for c in i.capacity_reservation_specification :"
                + " [for t in c.capacity_reservation_target : t.capacity_reservation_id]])) =="
                + " jsonencode("
                + (pool.capacityReservationId().isPresent() ? "[" + reservation + "]" : "[]")
                + ")])",
            "pool " + pool.name() + ": capacity reservation " + reservation + " on every instance");
        int cards =
            table.awsInstance(pool.instanceType()).map(AwsInstanceType::networkCards).orElse(1);
        // Card 0 of P6-B300 supports ENA only (aws/aws-parallelcluster#7143): the table's fact.
        boolean efaCard0 =
            table.awsInstance(pool.instanceType()).map(AwsInstanceType::efaOnCard0).orElse(true);
        List<String> types = new ArrayList<>();
        if (efa) {
          for (int i = 0; i < cards; i++) {
            types.add(i > 0 ? "\"efa-only\"" : efaCard0 ? "\"efa\"" : "null");
          }
        } else {
          types.add("null");
        }
        a.check(
            "jsonencode([for n in "
                + template
                + ".network_interfaces : [n.network_card_index, n.device_index, n.interface_type]])"
                + " == jsonencode("
                + interfaces(types)
                + ")",
            "pool "
                + pool.name()
                + ": "
                + (efa
                    ? "one EFA interface per network card ("
                        + cards
                        + " on "
                        + pool.instanceType()
                        + (efaCard0 ? ": efa on card 0" : ": ENA alone on card 0")
                        + ", efa-only on the others)"
                    : "fabric " + pool.fabric() + ": the primary ENA interface alone"));
        a.placement(spec, pool);
      }
      a.ingressRules(parsed);
      ClusterSpec.Network net = spec.network();
      if (net.vpcId().isEmpty() && net.internet() == Internet.NAT) {
        a.check(
            "length(aws_nat_gateway.this) == 1 && length(aws_route.nodes_internet) == 1 &&"
                + " aws_route.nodes_internet[0].destination_cidr_block == \"0.0.0.0/0\"",
            "gpugen creates the VPC with internet: nat: the nodes' route table needs a default"
                + " route through a NAT gateway");
      } else {
        a.check(
            "length(aws_nat_gateway.this) == 0 && length(aws_route.nodes_internet) == 0",
            "internet: " + net.internet() + ": no NAT gateway and no default route");
      }
      spec.kubernetes().filter(ClusterSpec.Kubernetes::eks).ifPresent(k -> a.eks(spec, k));
      spec.kubernetes().filter(ClusterSpec.Kubernetes::kubeadm).ifPresent(k -> a.kubeadm(spec, k));
      // The same .tf files for every spec: what the spec does not use is off.
      if (!a.eks) {
        a.check(
            "length(aws_eks_cluster.this) == 0 && length(aws_iam_role.eks) == 0 &&"
                + " length(aws_eks_addon.this) == 0 && length(aws_eks_access_entry.nodes) == 0",
            "no kubernetes.distribution eks: no EKS control plane, role, add-on or access entry");
      }
      if (!a.kubeadm) {
        a.check(
            "length(aws_instance.control_plane) == 0 && length(aws_placement_group.control_plane)"
                + " == 0 && length(aws_lb.kube_api) == 0",
            "no kubernetes.distribution kubeadm: no control-plane instances, group or NLB");
      }
      a.check(
          "length(aws_iam_role_policy.nodes_pull) == " + (spec.ansible().pullMode() ? 1 : 0),
          spec.ansible().pullMode()
              ? "pull mode: the node policy gpugen-pull"
              : "push mode: no pull-mode node policy");
      a.connection(spec);
      a.lustre(spec);
      a.pullBundle(spec);
      return a;
    }

    /** The pool module's instances of a pool, a map by node key. */
    static String instances(ClusterSpec.Pool pool) {
      return "module.pool[" + TerraformPlan.hclString(pool.name()) + "].instances";
    }

    /** The pool module's launch template of a pool. */
    static String template(ClusterSpec.Pool pool) {
      return "module.pool[" + TerraformPlan.hclString(pool.name()) + "].launch_template";
    }

    /**
     * network.placement: one placement group per pool, named CLUSTER[-ENV]-POOL, with the spec's
     * strategy, and every node of the pool in it; with none, no group and no node in one. The
     * group's name is also what gpugen drift compares.
     */
    private void placement(ClusterSpec spec, ClusterSpec.Pool pool) {
      String module = "module.pool[" + TerraformPlan.hclString(pool.name()) + "]";
      if (spec.network().placement() == Placement.NONE) {
        check(
            module + ".placement_group == null",
            "pool " + pool.name() + ": placement none, no placement group");
        return;
      }
      if (pool.capacityReservationId().isPresent()) {
        // EC2 places a Capacity Block's instances itself; a reservation made outside gpugen's
        // group cannot serve instances asked for inside it. (An instance's placement_group is
        // computed, unknown at plan time where none is set: the group's absence is the check.)
        check(
            module + ".placement_group == null",
            "pool " + pool.name() + ": a reserved pool gets no placement group of gpugen's");
        return;
      }
      String name =
          spec.metadata().name()
              + spec.metadata().environment().map(e -> "-" + e).orElse("")
              + "-"
              + pool.name();
      check(
          module
              + ".placement_group == "
              + TerraformPlan.hclString(name)
              + " && alltrue([for i in "
              + instances(pool)
              + " : i.placement_group == "
              + TerraformPlan.hclString(name)
              + "])",
          "pool "
              + pool.name()
              + ": one "
              + spec.network().placement()
              + " placement group, "
              + name
              + ", holding every node");
    }

    /** The API server endpoint and CA the mock gives the EKS cluster, known at plan time. */
    static final String EKS_ENDPOINT =
        "https://0123456789ABCDEF0123.gr7.us-east-1.eks.amazonaws.com";

    static final String EKS_CA = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==";

    /**
     * kubernetes.distribution eks: the control plane, its access entries and add-ons as the spec
     * says, and each pool's user data: exactly the join script computed here from the spec.
     */
    private void eks(ClusterSpec spec, ClusterSpec.Kubernetes k) {
      eks = true;
      String cluster = "aws_eks_cluster.this[0]";
      // EC2 refuses a tag key with "/" where instance metadata exposes the tags (pull mode with
      // Lustre); elsewhere every node carries the ownership tag EKS asks of self-managed nodes.
      boolean tagsInMetadata = spec.ansible().pullMode() && spec.storage().lustre().isPresent();
      for (ClusterSpec.Pool pool : spec.pools()) {
        check(
            "alltrue([for i in "
                + instances(pool)
                + " : lookup(i.tags, \"kubernetes.io/cluster/${"
                + cluster
                + ".name}\", \"\") == \""
                + (tagsInMetadata ? "" : "owned")
                + "\"])",
            "pool "
                + pool.name()
                + (tagsInMetadata
                    ? ": no kubernetes.io/cluster tag where the tags are in instance metadata"
                    : ": every node is tagged kubernetes.io/cluster/NAME = owned"));
      }
      check(
          cluster + ".version == " + TerraformPlan.hclString(k.version()),
          "the EKS cluster runs the spec's Kubernetes minor " + k.version());
      check(
          cluster
              + ".vpc_config[0].endpoint_private_access == true && "
              + cluster
              + ".vpc_config[0].endpoint_public_access == "
              + k.publicEndpoint(),
          "endpointAccess "
              + k.endpointAccess()
              + ": private endpoint on, public "
              + k.publicEndpoint());
      if (k.publicEndpoint()) {
        check(
            "toset("
                + cluster
                + ".vpc_config[0].public_access_cidrs) == toset("
                + hclList(k.publicCidrs())
                + ")",
            "the public endpoint is open to publicCidrs only");
      }
      check(
          cluster + ".access_config[0].authentication_mode == \"API\"",
          "access entries only (authentication mode API)");
      check(
          "jsonencode(" + cluster + ".encryption_config[0].resources) == jsonencode([\"secrets\"])",
          "Kubernetes secrets are envelope-encrypted with KMS");
      check(
          "toset("
              + cluster
              + ".enabled_cluster_log_types) == toset([\"api\", \"audit\","
              + " \"authenticator\", \"controllerManager\", \"scheduler\"])",
          "every control-plane log type goes to CloudWatch");
      check(
          "aws_eks_access_entry.nodes[0].type == \"EC2_LINUX\"",
          "the node role's access entry lets the nodes join (EC2_LINUX)");
      check(
          "toset(keys(aws_eks_access_entry.admins)) == toset("
              + hclList(k.admins())
              + ")"
              + " && alltrue([for e in aws_eks_access_entry.admins : e.type == \"STANDARD\"])",
          "one access entry per kubernetes.admins ARN");
      check(
          "toset(keys(aws_eks_access_policy_association.admins)) == toset("
              + hclList(k.admins())
              + ") && alltrue([for a in aws_eks_access_policy_association.admins : a.policy_arn =="
              + " \"arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy\" &&"
              + " a.access_scope[0].type == \"cluster\"])",
          "every admin has AmazonEKSClusterAdminPolicy on the whole cluster");
      check(
          "toset(keys(aws_eks_addon.this)) == toset([\"coredns\", \"eks-pod-identity-agent\","
              + " \"kube-proxy\", \"vpc-cni\"])",
          "the core add-ons vpc-cni, coredns, kube-proxy and eks-pod-identity-agent");
      java.util.Optional<dev.gpugen.plan.SystemPool> system =
          dev.gpugen.TestSpecs.plan(spec).systemPool();
      if (system.isEmpty()) {
        check(
            "contains(jsondecode(aws_eks_addon.this[\"coredns\"].configuration_values).tolerations,"
                + " { key = \"gpugen.dev/validation\", operator = \"Exists\", value = \"\","
                + " effect = \"NoSchedule\" })",
            "CoreDNS tolerates play 05's verdict taint, which every GPU node may carry at once");
      } else {
        String sys = "module.pool[\"gpugen-system\"]";
        check(
            "length(" + sys + ".instances) == " + system.get().count(),
            "the system pool has " + system.get().count() + " nodes");
        check(
            "alltrue([for i in values("
                + sys
                + ".instances) : i.instance_type == \""
                + system.get().instanceType()
                + "\" && i.tags[\"gpugen:role\"] == \"system\" && jsonencode([for m in"
                + " i.instance_market_options : m.market_type]) == jsonencode([])]) && "
                + sys
                + ".placement_group == null",
            "system nodes: "
                + system.get().instanceType()
                + ", on-demand, no placement group, tagged gpugen:role system");
        check(
            "length("
                + sys
                + ".launch_template.network_interfaces) == 1 && "
                + sys
                + ".launch_template.network_interfaces[0].interface_type == null",
            "system nodes: one ENA interface");
      }
      check(
          "toset(keys(aws_iam_role_policy_attachment.nodes_eks)) =="
              + " toset([\"AmazonEKSWorkerNodePolicy\", \"AmazonEC2ContainerRegistryReadOnly\","
              + " \"AmazonEKS_CNI_Policy\"])",
          "the node role has the EKS worker, ECR read and VPC CNI policies");
      check(
          "aws_iam_openid_connect_provider.eks[0].client_id_list == toset([\"sts.amazonaws.com\"])",
          "the cluster's OIDC issuer is an IAM identity provider for STS (IRSA)");
      String os = spec.cloud().image().equals("ubuntu-24.04") ? "noble-24.04" : "jammy-22.04";
      if (!spec.cloud().image().startsWith("ami-")) {
        check(
            "one([for f in data.aws_ami.ubuntu[0].filter : f.values if f.name == \"name\"]) =="
                + " toset([\"ubuntu-eks/k8s_"
                + k.version()
                + "/images/hvm-ssd*/ubuntu-"
                + os
                + "-amd64-server-*\"])",
            "the nodes boot Canonical's Ubuntu EKS image of the cluster's minor");
      }
      String name =
          spec.metadata().name() + spec.metadata().environment().map(e -> "-" + e).orElse("");
      boolean tenNet = spec.network().vpcCidr().map(c -> c.startsWith("10.")).orElse(true);
      String dns = tenNet ? "172.20.0.10" : "10.100.0.10";
      for (ClusterSpec.Pool pool : spec.pools()) {
        SortedMap<String, String> labels = new TreeMap<>(pool.labels());
        labels.put("gpugen-pool", pool.name());
        List<String> l = new ArrayList<>();
        labels.forEach((key, v) -> l.add(key + "=" + v));
        List<String> t = new ArrayList<>();
        pool.taints().forEach(x -> t.add(x.key() + "=" + x.value().orElse("") + ":" + x.effect()));
        String kubelet =
            "--node-labels="
                + String.join(",", l)
                + (t.isEmpty() ? "" : " --register-with-taints=" + String.join(",", t));
        String script =
            "#!/bin/bash\n# gpugen: join EKS cluster "
                + name
                + " as a node of pool "
                + pool.name()
                + " (labels and taints at registration).\nset -euo pipefail\n"
                + "/etc/eks/bootstrap.sh '"
                + name
                + "' --apiserver-endpoint '"
                + EKS_ENDPOINT
                + "' --b64-cluster-ca '"
                + EKS_CA
                + "' --dns-cluster-ip '"
                + dns
                + "' --kubelet-extra-args '"
                + kubelet
                + "'\n";
        String userData = "base64decode(" + template(pool) + ".user_data)";
        check(
            spec.ansible().mode() == AnsibleMode.PULL
                ? "strcontains(" + userData + ", " + TerraformPlan.hclString(script) + ")"
                : userData + " == " + TerraformPlan.hclString(script),
            "pool "
                + pool.name()
                + ": the nodes join the EKS cluster at boot with the pool's labels and taints");
      }
    }

    /** The load balancer's DNS name the mock gives it at plan time (kubeadm, count 3). */
    static final String KUBE_API_LB_DNS = "internal-kapi-0123456789.us-east-1.elb.amazonaws.com";

    /**
     * kubernetes.distribution kubeadm on aws: the control-plane instances as the spec says, with
     * the nodes' security posture (IMDSv2 only, one hop; encrypted root; no public address; the
     * nodes' image and security group; on-demand) and the tags gpugen-inventory groups them by;
     * with more than one, an internal NLB on 6443 whose name each instance carries.
     */
    private void kubeadm(ClusterSpec spec, ClusterSpec.Kubernetes k) {
      kubeadm = true;
      int count = k.controlPlaneCount();
      String cp = "aws_instance.control_plane";
      check(
          "length(" + cp + ") == " + count,
          "kubeadm: the spec asks for " + count + " control-plane instances");
      check(
          "alltrue([for i in "
              + cp
              + " : i.instance_type == "
              + TerraformPlan.hclString(k.controlPlaneInstanceType())
              + " && length(i.instance_market_options) == 0])",
          "kubeadm: control-plane instances of controlPlane.instanceType, on-demand");
      check(
          "alltrue([for i in "
              + cp
              + " : i.metadata_options[0].http_tokens == \"required\" &&"
              + " i.metadata_options[0].http_put_response_hop_limit == 1])",
          "kubeadm: every control-plane instance requires IMDSv2 tokens, one hop");
      check(
          "alltrue([for i in " + cp + " : i.root_block_device[0].encrypted == true])",
          "kubeadm: every control-plane root volume is encrypted");
      check(
          "alltrue([for i in " + cp + " : i.associate_public_ip_address == false])",
          "kubeadm: no control-plane instance has a public address");
      check(
          "alltrue([for i in "
              + cp
              + " : i.vpc_security_group_ids =="
              + " toset([aws_security_group.control_plane[0].id])])",
          "kubeadm: the control plane is in its own security group, not the nodes'");
      spec.pools().stream()
          .filter(p -> p.count() > 0)
          .findFirst()
          .ifPresent(
              p ->
                  check(
                      "alltrue([for i in " + cp + " : i.ami == " + instances(p) + "[\"0\"].ami])",
                      "kubeadm: the control plane boots the GPU nodes' image"));
      check(
          "alltrue([for n, i in "
              + cp
              + " : i.tags[\"gpugen:role\"] == \"control-plane\" && !contains(keys(i.tags),"
              + " \"gpugen:pool\")])",
          "kubeadm: gpugen:role control-plane (gpugen-inventory's kube_control_plane), no pool");
      if (count > 1) {
        check(
            "length(aws_lb.kube_api) == 1 && try(aws_lb.kube_api[0].internal == true &&"
                + " aws_lb.kube_api[0].load_balancer_type == \"network\", false)",
            "kubeadm with " + count + " control-plane instances: an internal NLB");
        check(
            "try(aws_lb_listener.kube_api[0].port == 6443 && aws_lb_listener.kube_api[0].protocol"
                + " == \"TCP\" && aws_lb_target_group.kube_api[0].port == 6443 &&"
                + " aws_lb_target_group.kube_api[0].preserve_client_ip == \"false\", false) &&"
                + " length(aws_lb_target_group_attachment.kube_api) == "
                + count,
            "kubeadm: the NLB forwards TCP 6443 to every control-plane instance, client IP"
                + " preservation off");
        check(
            "alltrue([for i in "
                + cp
                + " : try(i.tags[\"gpugen:kube-endpoint\"], \"\") == \""
                + KUBE_API_LB_DNS
                + ":6443\"])",
            "kubeadm: each control-plane instance carries the NLB's endpoint for the inventory");
        check(
            "try(aws_vpc_security_group_ingress_rule.control_plane_api_from_kube_api_lb[0]"
                + ".from_port == 6443 && aws_vpc_security_group_ingress_rule.kube_api_lb_from_nodes[0]"
                + ".from_port == 6443, false)",
            "kubeadm: 6443 from the nodes to the NLB and from the NLB to the control plane");
      } else {
        check(
            "length(aws_lb.kube_api) == 0",
            "kubeadm with one control-plane instance: no load balancer");
      }
    }

    private static String hclList(List<String> values) {
      return "[" + String.join(", ", values.stream().map(TerraformPlan::hclString).toList()) + "]";
    }

    /**
     * Pull mode from S3: Terraform uploads exactly the bundle the user data's digest covers, its
     * rendered dotfiles included, and nothing a push run leaves in ansible/ (fact cache, state).
     */
    private void pullBundle(ClusterSpec spec) {
      if (spec.ansible().pullMode() && spec.ansible().pull().source() == PullSource.S3) {
        check(
            "alltrue([for f in [\"site.yml\", \".gitignore\", \".ansible-lint\"] :"
                + " contains(keys(aws_s3_object.pull_bundle), f)]) && alltrue([for k in"
                + " keys(aws_s3_object.pull_bundle) : !startswith(k, \".cache/\") &&"
                + " !startswith(k, \".state/\") && !startswith(k, \"reports/\")])",
            "pull mode: Terraform uploads the rendered bundle, dotfiles included, and nothing"
                + " else");
      }
    }

    /**
     * connection ssm: the transfer bucket exists with the name the inventory computes, refuses
     * public access, expires its objects, and every node carries its name as gpugen:ssm-bucket;
     * else there is no bucket. An air-gapped VPC gpugen creates gets Session Manager's interface
     * endpoints with private DNS; other VPCs none.
     */
    private void connection(ClusterSpec spec) {
      if (spec.connection().ssm()) {
        check(
            "length(aws_s3_bucket.ssm) == 1 && aws_s3_bucket.ssm[0].force_destroy == true",
            "connection ssm: one transfer bucket, emptied by terraform destroy");
        check(
            "alltrue([for k in [\"block_public_acls\", \"block_public_policy\","
                + " \"ignore_public_acls\", \"restrict_public_buckets\"] :"
                + " aws_s3_bucket_public_access_block.ssm[0][k] == true])",
            "connection ssm: the transfer bucket blocks every kind of public access");
        check(
            "aws_s3_bucket_lifecycle_configuration.ssm[0].rule[0].status == \"Enabled\" &&"
                + " aws_s3_bucket_lifecycle_configuration.ssm[0].rule[0].expiration[0].days == 1",
            "connection ssm: the transfer bucket's objects expire after a day");
        check(
            "length(aws_s3_bucket_server_side_encryption_configuration.ssm[0].rule) == 1 &&"
                + " alltrue([for r in aws_s3_bucket_server_side_encryption_configuration.ssm[0].rule :"
                + " length(r.apply_server_side_encryption_by_default) == 1 && alltrue([for d in"
                + " r.apply_server_side_encryption_by_default : contains([\"AES256\","
                + " \"aws:kms\"], d.sse_algorithm)])])",
            "connection ssm: the transfer bucket encrypts at rest");
        // The name gpugen-inventory computes (prefix, account id, region); never a generated one.
        check(
            "aws_s3_bucket.ssm[0].bucket == \"${var.ssm_bucket_prefix}123456789012-${var.region}\"",
            "connection ssm: the transfer bucket is named by the render, as the inventory expects");
        for (ClusterSpec.Pool pool : spec.pools()) {
          check(
              "alltrue([for i in "
                  + instances(pool)
                  + " : contains(keys(i.tags), \"gpugen:ssm-bucket\")])",
              "pool " + pool.name() + ": every node is tagged with the transfer bucket");
        }
      } else {
        check("length(aws_s3_bucket.ssm) == 0", "connection ssh: no SSM transfer bucket");
      }
      ClusterSpec.Network net = spec.network();
      if (net.vpcId().isEmpty() && net.internet() == Internet.NONE) {
        check(
            "alltrue([for s in [\"ssm\", \"ssmmessages\", \"ec2messages\"] :"
                + " contains(keys(aws_vpc_endpoint.interface), s)])"
                + " && alltrue([for e in values(aws_vpc_endpoint.interface) :"
                + " e.private_dns_enabled == true && e.vpc_endpoint_type == \"Interface\"])",
            "internet: none: Session Manager's interface endpoints, with private DNS");
        if (spec.kubernetes().filter(ClusterSpec.Kubernetes::eks).isPresent()) {
          check(
              "alltrue([for s in [\"ec2\", \"ecr.api\", \"ecr.dkr\", \"eks\", \"eks-auth\","
                  + " \"sts\"] : contains(keys(aws_vpc_endpoint.interface), s)])",
              "internet: none with EKS: the private cluster's interface endpoints");
        }
        check(
            "length(aws_vpc_endpoint.s3) == 1", "internet: none: S3 through the gateway endpoint");
      } else {
        check(
            "length(aws_vpc_endpoint.interface) == 0",
            "internet: " + net.internet() + ": no interface endpoints");
      }
    }

    /**
     * storage.lustre: the file system, the output naming its mount point, and on every node the
     * tags that carry its address to Ansible (gpugen-inventory; in pull mode the node's own
     * instance metadata, which then serves tags). Without it: none of them.
     */
    private void lustre(ClusterSpec spec) {
      Optional<ClusterSpec.Lustre> lustre = spec.storage().lustre();
      String keys = "[\"gpugen:lustre-dns-name\", \"gpugen:lustre-mount-name\"]";
      check(
          "length(aws_fsx_lustre_file_system.this) == " + (lustre.isPresent() ? 1 : 0),
          lustre.isPresent()
              ? "storage.lustre: one file system"
              : "no storage.lustre: no file system");
      check(
          "output.lustre_mount_point == "
              + lustre.map(l -> "\"" + l.mountPoint() + "\"").orElse("null"),
          "the output lustre_mount_point is storage.lustre.mountPoint, null without one");
      for (ClusterSpec.Pool pool : spec.pools()) {
        String instances = instances(pool);
        String template = template(pool);
        check(
            "alltrue([for i in "
                + instances
                + " : "
                + (lustre.isPresent() ? "" : "!")
                + "alltrue([for k in "
                + keys
                + " : contains(keys(i.tags), k)])])",
            "pool "
                + pool.name()
                + (lustre.isPresent()
                    ? ": every node is tagged with the file system's DNS and mount names"
                    : ": no Lustre tags without storage.lustre"));
        if (spec.ansible().pullMode()) {
          String state = lustre.isPresent() ? "enabled" : "disabled";
          check(
              template
                  + ".metadata_options[0].instance_metadata_tags == \""
                  + state
                  + "\" && alltrue([for i in "
                  + instances
                  + " : i.metadata_options[0].instance_metadata_tags == \""
                  + state
                  + "\"])",
              "pool "
                  + pool.name()
                  + ": pull mode reads the Lustre tags from instance metadata: tags in metadata "
                  + state);
        }
      }
    }

    private static String interfaces(List<String> types) {
      List<String> rows = new ArrayList<>();
      for (int i = 0; i < types.size(); i++) {
        rows.add("[" + i + ", 0, " + types.get(i) + "]");
      }
      return "[" + String.join(", ", rows) + "]";
    }

    /** No ingress rule of any kind opens a port to the whole internet. */
    private void ingressRules(Map<String, JsonNode> parsed) {
      int rules = 0;
      for (JsonNode body : parsed.values()) {
        JsonNode ingress = body.path("resource").path("aws_vpc_security_group_ingress_rule");
        for (Map.Entry<String, JsonNode> e : ingress.properties()) {
          JsonNode block = e.getValue().get(0);
          String ref = "aws_vpc_security_group_ingress_rule." + e.getKey();
          String list =
              block.has("for_each")
                  ? "values(" + ref + ")"
                  : block.has("count") ? ref : "[" + ref + "]";
          check(
              "alltrue([for r in "
                  + list
                  + " : r.cidr_ipv4 != \"0.0.0.0/0\" && r.cidr_ipv6 != \"::/0\"])",
              ref + " must not open ingress to 0.0.0.0/0 or ::/0");
          rules++;
        }
        if (body.path("resource").has("aws_security_group_rule")) {
          throw new AssertionError(
              "aws_security_group_rule is not checked by this test: use"
                  + " aws_vpc_security_group_ingress_rule, or extend the test");
        }
        for (JsonNode sg : iterable(body.path("resource").path("aws_security_group"))) {
          if (sg.get(0).has("ingress")) {
            throw new AssertionError("inline ingress in aws_security_group is not checked: " + sg);
          }
        }
      }
      assertTrue(rules > 0, "the render has ingress rules to check");
    }

    private static Iterable<JsonNode> iterable(JsonNode n) {
      List<JsonNode> out = new ArrayList<>();
      n.elements().forEachRemaining(out::add);
      return out;
    }

    private void check(String condition, String message) {
      run.append("  assert {\n    condition     = ")
          .append(condition)
          .append("\n    error_message = ")
          .append(TerraformPlan.hclString(message))
          .append("\n  }\n\n");
    }

    /** The mock provider: data sources answered, the real provider validating resources. */
    static final String MOCK =
        """
          # Written by TerraformPlanTest: a plan against the real provider's schema and validation,
          # with data sources answered by the mock.
          mock_provider "aws" {
            mock_data "aws_partition" {
              defaults = {
                partition          = "aws"
                dns_suffix         = "amazonaws.com"
                reverse_dns_prefix = "com.amazonaws"
              }
            }

            mock_data "aws_caller_identity" {
              defaults = {
                account_id = "123456789012"
                arn        = "arn:aws:iam::123456789012:user/gpugen-test"
              }
            }

            mock_data "aws_iam_policy_document" {
              defaults = {
                json = "{\\"Version\\":\\"2012-10-17\\",\\"Statement\\":[]}"
              }
            }

            mock_data "aws_ami" {
              defaults = {
                id = "ami-0123456789abcdef0"
              }
            }

            mock_data "aws_availability_zones" {
              defaults = {
                names = ["us-east-1a", "us-east-1b", "us-east-1c"]
              }
            }

            mock_data "aws_eks_addon_version" {
              defaults = {
                version = "v1.0.0-eksbuild.1"
              }
            }
          }

          """;

    /** The assertions as one run block named {@code name}, with the case's variables. */
    String run(String name, String variables) {
      StringBuilder b = new StringBuilder();
      b.append("run ").append(TerraformPlan.hclString(name)).append(" {\n  command = plan\n\n");
      b.append(variables);
      spec.network()
          .vpcId()
          .ifPresent(
              vpc ->
                  b.append("  override_data {\n    target = data.aws_subnet.existing\n")
                      .append("    values = {\n      vpc_id = ")
                      .append(TerraformPlan.hclString(vpc))
                      .append("\n    }\n  }\n\n"));
      if (eks) {
        // The cluster's endpoint and CA exist only after apply; known values at plan time let the
        // assertions read each pool's join script (override_during needs Terraform 1.11).
        b.append("  override_resource {\n    target          = aws_eks_cluster.this\n")
            .append("    override_during = plan\n    values = {\n")
            .append("      endpoint              = ")
            .append(TerraformPlan.hclString(EKS_ENDPOINT))
            .append("\n      certificate_authority = [{ data = ")
            .append(TerraformPlan.hclString(EKS_CA))
            .append(
                " }]\n      identity = [{ oidc = [{ issuer ="
                    + " \"https://oidc.eks.us-east-1.amazonaws.com/id/0123456789ABCDEF0123\" }] }]\n")
            .append("    }\n  }\n\n");
      }
      if (kubeadm) {
        // Ids and the load balancer's name exist only after apply: known values at plan time let
        // the assertions compare them.
        b.append("  override_resource {\n    target          = aws_security_group.nodes\n")
            .append("    override_during = plan\n    values = {\n")
            .append("      id = \"sg-0123456789abcdef0\"\n    }\n  }\n\n")
            .append(
                "  override_resource {\n    target          = aws_security_group.control_plane\n")
            .append("    override_during = plan\n    values = {\n")
            .append("      id = \"sg-0123456789abcdef1\"\n    }\n  }\n\n")
            .append("  override_resource {\n    target          = aws_lb.kube_api\n")
            .append("    override_during = plan\n    values = {\n")
            .append("      dns_name = ")
            .append(TerraformPlan.hclString(KUBE_API_LB_DNS))
            .append(
                "\n      arn      = \"arn:aws:elasticloadbalancing:us-east-1:123456789012:"
                    + "loadbalancer/net/kapi-0123/0123456789abcdef\"")
            .append("\n    }\n  }\n\n");
      }
      b.append(run);
      return b.toString().stripTrailing() + "\n}\n";
    }
  }
}
