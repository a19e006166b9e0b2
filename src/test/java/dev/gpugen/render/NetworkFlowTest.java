package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.TestSpecs;
import dev.gpugen.render.TerraformCases.Case;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every AWS golden and example render, applied by {@code terraform test} with the real
 * hashicorp/aws provider and {@code mock_provider "aws"} (the mock makes every id known, so
 * references resolve), and the applied network held against the flow table ({@link NetworkFlows},
 * {@link FlowCheck}): each flow the deploy path needs is allowed by an egress rule on its sender,
 * an ingress rule on its receiver and a route; each flow the rules allow is one the table lists.
 *
 * <p>The .tf files are the same for every spec, so every case runs in one initialised folder, each
 * in a test file of its own (its own state), in one {@code terraform test -json -verbose}; the
 * states it prints carry the provider's schemas (megabytes each), so the output goes to a file that
 * is read as a stream. Planted mutations (a rule removed, a world-open rule and a wider one added)
 * run in folders of their own and must fail, naming their rows.
 */
@TerraformTest
class NetworkFlowTest {
  @TempDir static Path scratch;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One case's applied network checked, or why it could not be applied. */
  record Outcome(Case c, Optional<FlowCheck.Result> result, String said) {
    FlowCheck.Result checked() {
      return result.orElseThrow(
          () -> new AssertionError(c.label() + ": terraform test applied nothing:\n" + said));
    }
  }

  private static Map<String, Outcome> outcomes;

  static List<Case> cases() throws IOException {
    String only = System.getProperty("gpugen.planCases", "");
    List<Case> out = new ArrayList<>();
    for (Case c : TerraformCases.all()) {
      if (c.label().contains(only) && c.read().cloud().provider() == Provider.AWS) {
        out.add(c);
      }
    }
    return out;
  }

  static synchronized Map<String, Outcome> outcomes() throws Exception {
    if (outcomes == null) {
      Map<String, List<Case>> groups = new TreeMap<>();
      Map<String, SortedMap<String, String>> files = new TreeMap<>();
      for (Case c : cases()) {
        SortedMap<String, String> f = c.terraform();
        files.put(c.label(), f);
        groups.computeIfAbsent(digest(f), k -> new ArrayList<>()).add(c);
      }
      Map<String, Outcome> out = new TreeMap<>();
      for (List<Case> group : groups.values()) {
        out.putAll(apply("flows", group, files, Map.of()));
      }
      outcomes = out;
    }
    return outcomes;
  }

  private static String digest(SortedMap<String, String> files) {
    StringBuilder all = new StringBuilder();
    files.forEach(
        (path, text) -> {
          if (TerraformPlanTest.shared(path)) {
            all.append(path).append('\0').append(text).append('\0');
          }
        });
    return Sha256.hex(all.toString());
  }

  /**
   * Applies {@code cases} (the same .tf files) in one new folder with {@code planted} files added,
   * and checks each applied network.
   */
  static Map<String, Outcome> apply(
      String name,
      List<Case> cases,
      Map<String, SortedMap<String, String>> files,
      Map<String, String> planted)
      throws Exception {
    SortedMap<String, String> tf = new TreeMap<>(files.get(cases.get(0).label()));
    tf.keySet().removeIf(p -> !TerraformPlanTest.shared(p));
    tf.putAll(planted);
    TerraformPlan.Workspace ws = TerraformPlan.init(Files.createTempDirectory(scratch, name), tf);
    List<String> filters = new ArrayList<>();
    Map<String, Case> byFile = new TreeMap<>();
    for (int i = 0; i < cases.size(); i++) {
      Case c = cases.get(i);
      ObjectNode vars = TerraformPlanTest.variables(ws, "f" + i, files.get(c.label()));
      TerraformPlanTest.bundle(ws, c);
      String file = "tests/" + name + "_" + i + ".tftest.hcl";
      Files.createDirectories(ws.dir().resolve("tests"));
      Files.writeString(ws.dir().resolve(file), applyRun(c.read(), vars), StandardCharsets.UTF_8);
      filters.add("-filter=" + file);
      byFile.put(file, c);
    }
    Path log = ws.dir().resolveSibling(name + ".jsonl");
    List<String> command =
        new ArrayList<>(
            List.of(
                TerraformPlan.tools().terraform().toString(),
                "test",
                "-no-color",
                "-json",
                "-verbose"));
    command.addAll(filters);
    ProcessBuilder pb = new ProcessBuilder(command).directory(ws.dir().toFile());
    pb.environment().putAll(ws.env());
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process p = RealTools.start(pb);
    if (!p.waitFor(30, TimeUnit.MINUTES)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly().waitFor();
      throw new AssertionError("terraform test timed out: " + command);
    }
    Map<String, JsonNode> states = new TreeMap<>();
    Map<String, StringBuilder> said = new TreeMap<>();
    read(log, states, said);
    Map<String, Outcome> out = new TreeMap<>();
    for (Map.Entry<String, Case> e : byFile.entrySet()) {
      Case c = e.getValue();
      ClusterSpec spec = c.read();
      String text = said.getOrDefault(e.getKey(), new StringBuilder()).toString();
      JsonNode state = states.get(e.getKey());
      if (state == null) {
        out.put(c.label(), new Outcome(c, Optional.empty(), text + tail(log)));
        continue;
      }
      AppliedNetwork net =
          AppliedNetwork.of(state, spec.network().vpcId().orElse("(the created VPC)"));
      FlowCheck.Result r =
          FlowCheck.check(net, new NetworkFlows.Deploy(spec, TestSpecs.plan(spec)));
      out.put(c.label(), new Outcome(c, Optional.of(r), text));
    }
    return out;
  }

  private static String tail(Path log) throws IOException {
    StringBuilder b = new StringBuilder();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      if (line.length() < 4000) {
        b.append(line).append('\n');
      }
    }
    return b.length() > 20000 ? b.substring(b.length() - 20000) : b.toString();
  }

  /**
   * The log of {@code terraform test -json -verbose}, one JSON object a line: each test file's
   * state (its {@code root_module}; the provider schemas beside it are skipped unread) and its
   * error and warning messages.
   */
  private static void read(Path log, Map<String, JsonNode> states, Map<String, StringBuilder> said)
      throws IOException {
    try (JsonParser in = JSON.getFactory().createParser(log.toFile())) {
      while (in.nextToken() == JsonToken.START_OBJECT) {
        String file = "";
        String type = "";
        JsonNode rootModule = null;
        JsonNode diagnostic = null;
        String message = "";
        while (in.nextToken() == JsonToken.FIELD_NAME) {
          String field = in.currentName();
          in.nextToken();
          switch (field) {
            case "@testfile" -> file = in.getText();
            case "@message" -> message = in.getText();
            case "type" -> type = in.getText();
            case "diagnostic" -> diagnostic = JSON.readTree(in);
            case "test_state" -> {
              while (in.nextToken() == JsonToken.FIELD_NAME) {
                String f = in.currentName();
                in.nextToken();
                if (f.equals("root_module")) {
                  rootModule = JSON.readTree(in);
                } else {
                  in.skipChildren();
                }
              }
            }
            default -> in.skipChildren();
          }
        }
        if (type.equals("test_state") && rootModule != null) {
          states.put(file, rootModule);
        } else if (diagnostic != null) {
          said.computeIfAbsent(file, k -> new StringBuilder())
              .append(message)
              .append('\n')
              .append(diagnostic.path("detail").asText())
              .append('\n')
              .append(diagnostic.path("address").asText())
              .append('\n');
        }
      }
    }
  }

  /** The run of one case: the mock, the apply with the case's variables. */
  private static String applyRun(ClusterSpec spec, ObjectNode vars) {
    StringBuilder b = new StringBuilder(APPLY_MOCK);
    b.append("\nrun \"apply\" {\n  command = apply\n\n");
    b.append(TerraformPlanTest.variablesBlock(vars));
    spec.network()
        .vpcId()
        .ifPresent(
            vpc ->
                b.append("  override_data {\n    target = data.aws_subnet.existing\n")
                    .append("    values = {\n      vpc_id = ")
                    .append(TerraformPlan.hclString(vpc))
                    .append("\n    }\n  }\n"));
    return b.append("}\n").toString();
  }

  /**
   * The plan test's data sources, and for an apply the ids and ARNs another resource's argument
   * validates (a launch template's lt-, a load balancer's and a target group's ARN, the EKS
   * cluster's endpoint, CA and OIDC issuer, the roles' and keys' ARNs). Security group, subnet and
   * route table ids stay the mock's random values: each distinct, as the check needs.
   */
  static final String APPLY_MOCK =
      withoutLastBrace(TerraformPlanTest.PlanAssertions.MOCK)
          + """

            mock_resource "aws_launch_template" {
              defaults = {
                id = "lt-0123456789abcdef0"
              }
            }

            mock_resource "aws_iam_role" {
              defaults = {
                arn = "arn:aws:iam::123456789012:role/gpugen-mock"
              }
            }

            mock_resource "aws_kms_key" {
              defaults = {
                arn = "arn:aws:kms:us-east-1:123456789012:key/0123abcd-0123-0123-0123-0123456789ab"
              }
            }

            mock_resource "aws_s3_bucket" {
              defaults = {
                arn = "arn:aws:s3:::gpugen-mock"
              }
            }

            mock_resource "aws_eks_cluster" {
              defaults = {
                arn                   = "arn:aws:eks:us-east-1:123456789012:cluster/gpugen-mock"
                endpoint              = "https://0123456789ABCDEF0123.gr7.us-east-1.eks.amazonaws.com"
                identity              = [{ oidc = [{ issuer = "https://oidc.eks.us-east-1.amazonaws.com/id/0123456789ABCDEF0123" }] }]
                certificate_authority = [{ data = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==" }]
              }
            }

            mock_resource "aws_iam_openid_connect_provider" {
              defaults = {
                arn = "arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/0123456789ABCDEF0123"
              }
            }

            mock_resource "aws_lb" {
              defaults = {
                arn      = "arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/net/kapi-0123/0123456789abcdef"
                dns_name = "internal-kapi-0123456789.us-east-1.elb.amazonaws.com"
              }
            }

            mock_resource "aws_lb_target_group" {
              defaults = {
                arn = "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/kapi-0123/0123456789abcdef"
              }
            }
          }
          """;

  private static String withoutLastBrace(String mock) {
    String t = mock.stripTrailing();
    assertTrue(t.endsWith("}"), "the plan test's mock ends its block: " + t);
    return t.substring(0, t.length() - 1).stripTrailing() + "\n";
  }

  @TestFactory
  Stream<DynamicTest> everyAwsRenderAllowsTheFlowsItNeedsAndNoOthers() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Case c : cases()) {
      tests.add(
          DynamicTest.dynamicTest(
              c.label() + ": the applied network against the flow table",
              () -> {
                FlowCheck.Result r = outcomes().get(c.label()).checked();
                assertEquals(
                    List.of(),
                    r.failures(),
                    c.label()
                        + ": the flow table and the applied network disagree\n  "
                        + String.join("\n  ", r.failures()));
                assertTrue(!r.evidence().isEmpty(), c.label() + ": no required flow checked");
              }));
    }
    assertTrue(
        tests.size() >= 8 || !System.getProperty("gpugen.planCases", "").isEmpty(),
        "AWS renders found: " + tests.size());
    return tests.stream();
  }

  /**
   * The reference example (EKS, private endpoint): a controller inside network.sshIngressCidrs
   * reaches the API server's private endpoint on 443, through the rule on EKS's cluster security
   * group (AWS: a connected network must be let in there).
   */
  @Test
  void theReferenceExampleLetsTheControllerReachThePrivateEksEndpoint() throws Exception {
    FlowCheck.Result r = checked("examples/aws-h100/cluster.yaml");
    String proof = r.evidence().get("api-eks-from-controller");
    assertTrue(
        proof != null
            && proof.contains(
                "ingress aws_vpc_security_group_ingress_rule.eks_from_controller[\"203.0.113.0/24\"]"),
        "the controller's flow to the EKS API: " + r.evidence());
    assertTrue(
        r.evidence().get("eks-api-from-nodes").contains("nodes_to_eks"), r.evidence().toString());
    System.out.println("aws-h100: api-eks-from-controller: " + proof);
  }

  /**
   * The 3-control-plane kubeadm golden: the nodes reach the internal load balancer on 6443 (an
   * egress rule of their group, an ingress rule of the load balancer's), it forwards to every
   * control-plane instance, and etcd flows among them.
   */
  @Test
  void threeControlPlaneKubeadmLetsTheNodesReachTheLoadBalancer() throws Exception {
    FlowCheck.Result r = checked("golden aws-kubeadm");
    String proof = r.evidence().get("kubeadm-lb-from-nodes");
    assertTrue(
        proof != null
            && proof.contains("egress aws_vpc_security_group_egress_rule.nodes_to_kube_api_lb[0]")
            && proof.contains(
                "ingress aws_vpc_security_group_ingress_rule.kube_api_lb_from_nodes[0]")
            && proof.contains("TCP listener forwarding to every control-plane instance"),
        "the nodes' flow to the load balancer: " + r.evidence());
    assertTrue(
        r.evidence().get("kubeadm-control-plane-peers").contains("TCP 2379-2380"),
        r.evidence().toString());
    System.out.println("aws-kubeadm: kubeadm-lb-from-nodes: " + proof);
  }

  /**
   * The first original defect planted back: the reference example without the rule that lets the
   * controller's CIDRs into EKS's cluster security group on 443 fails the check with the row.
   */
  @Test
  void theCheckFailsWithoutTheControllersRuleOnThePrivateEksEndpoint() throws Exception {
    List<String> failures =
        planted(
            "eks",
            example("examples/aws-h100/cluster.yaml"),
            Map.of(
                "planted_override.tf",
                """
                # Planted by NetworkFlowTest: the controller's 443 to the EKS endpoint removed.
                resource "aws_vpc_security_group_ingress_rule" "eks_from_controller" {
                  for_each = toset([])
                }
                """));
    assertTrue(
        failures.stream()
            .anyMatch(
                f ->
                    f.startsWith("required flow not allowed: [api-eks-from-controller]")
                        && f.contains("lacks TCP 443")
                        && f.contains("no ingress rule of aws_eks_cluster.this[0]")
                        && f.contains(source("api-eks-from-controller"))),
        "the missing rule's row: " + failures);
  }

  /**
   * The second original defect planted back: the 3-control-plane kubeadm golden without the nodes'
   * egress rule to the load balancer fails the check with the row.
   */
  @Test
  void theCheckFailsOnAMissingRule() throws Exception {
    List<String> failures =
        planted(
            "missing",
            KUBEADM,
            Map.of(
                "planted_override.tf",
                """
                # Planted by NetworkFlowTest: the nodes' egress to the API load balancer removed.
                resource "aws_vpc_security_group_egress_rule" "nodes_to_kube_api_lb" {
                  count = 0
                }
                """));
    assertTrue(
        failures.stream()
            .anyMatch(
                f ->
                    f.startsWith("required flow not allowed: [kubeadm-lb-from-nodes]")
                        && f.contains("lacks TCP 6443")
                        && f.contains(source("kubeadm-lb-from-nodes"))),
        "the missing rule's row: " + failures);
  }

  /**
   * The check fails on a rule that opens a node port to 0.0.0.0/0, and on one wider than the table
   * (the nodes' all-traffic group opened to the control plane).
   */
  @Test
  void theCheckFailsOnAWorldOpenAndAWiderRule() throws Exception {
    List<String> failures =
        planted(
            "open",
            KUBEADM,
            Map.of(
                "planted.tf",
                """
                # Planted by NetworkFlowTest: SSH from everywhere, and all traffic from the
                # control plane into the nodes' group.
                resource "aws_vpc_security_group_ingress_rule" "planted_world" {
                  security_group_id = aws_security_group.nodes.id
                  cidr_ipv4         = "0.0.0.0/0"
                  ip_protocol       = "tcp"
                  from_port         = 22
                  to_port           = 22
                  description       = "planted"
                }

                resource "aws_vpc_security_group_ingress_rule" "planted_wide" {
                  security_group_id            = aws_security_group.nodes.id
                  referenced_security_group_id = aws_security_group.control_plane[0].id
                  ip_protocol                  = "-1"
                  description                  = "planted"
                }
                """));
    assertTrue(
        failures.stream()
            .anyMatch(
                f ->
                    f.startsWith(
                        "open to the world: aws_vpc_security_group_ingress_rule.planted_world")),
        "the world-open rule: " + failures);
    assertTrue(
        failures.stream()
            .anyMatch(
                f ->
                    f.startsWith(
                            "allowed flow the table does not list: kubeadm control plane -> GPU nodes")
                        && f.contains("planted_wide")),
        "the wider rule: " + failures);
  }

  private static final Case KUBEADM =
      new Case(
          "golden aws-kubeadm",
          Rendered.GOLDEN.resolve("aws-kubeadm").resolve("spec.yaml"),
          Optional.empty());

  private static Case example(String spec) {
    return new Case(spec, Path.of(spec), Optional.empty());
  }

  private static String source(String id) {
    return NetworkFlows.ROWS.stream()
        .filter(x -> x.id().equals(id))
        .findFirst()
        .orElseThrow()
        .source();
  }

  /** A case applied with {@code files} planted: its check's failures. */
  private static List<String> planted(String name, Case c, Map<String, String> files)
      throws Exception {
    Outcome o = apply(name, List.of(c), Map.of(c.label(), c.terraform()), files).get(c.label());
    List<String> failures = o.checked().failures();
    assertTrue(!failures.isEmpty(), "the planted " + name + " rule passed the check");
    System.out.println("planted " + name + ":\n  " + String.join("\n  ", failures));
    return failures;
  }

  private static FlowCheck.Result checked(String label) throws Exception {
    Outcome o = outcomes().get(label);
    assertTrue(o != null, "no case " + label + " among " + outcomes().keySet());
    return o.checked();
  }
}
