package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.render.TerraformCases.Case;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TerraformPlan;
import dev.gpugen.testing.TerraformTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upgrading gpugen replaces no running node: a state made by the previous Terraform layout (one
 * resource per pool, {@code count} for the nodes; src/test/resources/terraform-previous-layout)
 * plans, under today's render of the same spec, nothing destroyed and nothing replaced; the
 * instances, launch templates and placement groups move to their new addresses and plan no change.
 *
 * <p>How Terraform itself makes and judges that state, offline:
 *
 * <ol>
 *   <li>{@code terraform test} applies the previous render with {@code mock_provider "aws"} and
 *       prints the resulting state ({@code -json -verbose}); it becomes a terraform.tfstate. (Until
 *       Terraform 1.12's {@code state_key}, a test cannot plan a second configuration against a
 *       state it made, so the state leaves the test.)
 *   <li>The mock fills computed attributes with random values and knows none of the provider's
 *       defaults, so the real provider would still want to change that state. It is converged: the
 *       previous render is planned against it with the real hashicorp/aws provider ({@code
 *       terraform plan -refresh=false}, reads answered by {@link AwsReadsStandIn}), the plan's
 *       known values written back, until that plan is empty: the state a real apply of the previous
 *       layout leaves as far as Terraform can tell without AWS. (The spread variant starts from the
 *       cluster variant's converged state with its group's strategy edited, instead of an apply;
 *       its first plan is already empty.)
 *   <li>Today's render is planned against that state the same way, and its plan read from {@code
 *       terraform show -json}.
 * </ol>
 *
 * <p>Without moved.tf the same plan destroys every node, so the check can fail.
 */
@TerraformTest
class MovedStateTest {
  static final Path PREVIOUS = Path.of("src/test/resources/terraform-previous-layout");
  static final String AMI = "ami-0123456789abcdef0";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path scratch;

  /** The converged state of each previous render, made once for the tests that plan against it. */
  private static final Map<String, ObjectNode> CONVERGED =
      new java.util.concurrent.ConcurrentHashMap<>();

  @Test
  void anEksPullModeClusterOfTheCountedLayoutMovesWithoutReplacingAnything() throws Exception {
    Plan plan = upgrade("aws-eks-pull", true);
    plan.assertNothingDestroyedOrReplaced();
    plan.assertNodesMovedUnchanged();
    // The EKS resources gained count (eks_enabled) and move to [0]; pull mode's policy too.
    for (String address :
        List.of(
            "aws_eks_cluster.this",
            "aws_iam_role.eks",
            "aws_eks_access_entry.nodes",
            "aws_iam_openid_connect_provider.eks",
            "aws_iam_role_policy.nodes_pull")) {
      plan.assertMoved(address, address + "[0]");
    }
  }

  @Test
  void aKubeadmClusterOfTheCountedLayoutMovesWithoutReplacingAnything() throws Exception {
    Plan plan = upgrade("aws-kubeadm", false);
    plan.assertNothingDestroyedOrReplaced();
    plan.assertNodesMovedUnchanged();
    plan.assertMoved(
        "aws_placement_group.h100[0]", "module.pool[\"h100\"].aws_placement_group.this[0]");
    plan.assertMoved("aws_placement_group.control_plane", "aws_placement_group.control_plane[0]");
  }

  /**
   * The last counted layout (at commit 70549c55, with Capacity Blocks): a P6-B300 pool in a
   * Capacity Block (card 0 ENA only, EFA on cards 1-16) and a P5 pool in a targeted On-Demand
   * Capacity Reservation, neither in a placement group. A reserved node replaced would be
   * relaunched only while the reservation has room, so its market, reservation and interfaces must
   * carry over unchanged.
   */
  @Test
  void aReservedCapacityClusterOfTheLastCountedLayoutMovesWithoutReplacingAnything()
      throws Exception {
    Plan plan = upgrade("aws-capacity-block", false);
    plan.assertNothingDestroyedOrReplaced();
    plan.assertNodesMovedUnchanged();
    for (JsonNode rc : plan.changes()) {
      assertTrue(
          !rc.path("type").asText().equals("aws_placement_group"),
          "a reserved pool has no placement group in either layout: " + rc.path("address"));
    }
    // Each node planned with its pool's market and reservation: the state is a reserved
    // cluster's, and the plan (no-op, above) keeps them.
    for (ClusterSpec.Pool pool : plan.spec().pools()) {
      for (int i = 0; i < pool.count(); i++) {
        String address =
            "module.pool["
                + TerraformPlan.hclString(pool.name())
                + "].aws_instance.this[\""
                + i
                + "\"]";
        JsonNode after = plan.change(address).path("change").path("after");
        assertEquals(
            pool.capacityBlock() ? "capacity-block" : "",
            after.path("instance_market_options").path(0).path("market_type").asText(),
            address);
        assertEquals(
            pool.capacityReservationId().orElseThrow(),
            after
                .path("capacity_reservation_specification")
                .path(0)
                .path("capacity_reservation_target")
                .path(0)
                .path("capacity_reservation_id")
                .asText(),
            address);
      }
    }
  }

  /** The check can fail: today's render without its moved blocks destroys every node. */
  @Test
  void withoutTheMovedBlocksEveryNodeWouldBeReplaced() throws Exception {
    Plan plan = upgrade("aws-kubeadm", false, "moved.tf");
    List<String> destroyed = plan.destroyed();
    assertTrue(
        destroyed.containsAll(List.of("aws_instance.h100[0]", "aws_instance.h100[1]")),
        "without moved.tf the counted nodes are destroyed: " + destroyed);
  }

  /**
   * What an upgrade replaces on purpose: the SSM transfer bucket of connection ssm and its
   * settings, once, because its name is now fixed by the render (prefix, account id, region: what
   * gpugen-inventory computes) where the previous layout let AWS generate a suffix. It holds only
   * transfer scratch (objects expire after a day; force_destroy), so replacing it loses nothing.
   * And one security group rule that no longer has a member to admit.
   */
  static final java.util.Set<String> REPLACED_ON_PURPOSE =
      java.util.Set.of(
          "aws_s3_bucket.ssm",
          "aws_s3_bucket_lifecycle_configuration.ssm",
          "aws_s3_bucket_ownership_controls.ssm",
          "aws_s3_bucket_policy.ssm",
          "aws_s3_bucket_public_access_block.ssm",
          "aws_s3_bucket_server_side_encryption_configuration.ssm",
          // kubeadm's control plane has a security group of its own now: the nodes' group no
          // longer takes the API server's port from the load balancer, the control plane's does.
          "aws_vpc_security_group_ingress_rule.nodes_from_kube_api_lb");

  /** A plan of today's render against the converged state of the previous one. */
  record Plan(String label, ClusterSpec spec, JsonNode json, List<String> previousAddresses) {
    List<JsonNode> changes() {
      List<JsonNode> out = new ArrayList<>();
      json.path("resource_changes")
          .forEach(
              rc -> {
                if (rc.path("mode").asText().equals("managed")) {
                  out.add(rc);
                }
              });
      return out;
    }

    List<String> destroyed() {
      List<String> out = new ArrayList<>();
      for (JsonNode rc : changes()) {
        String resource = rc.path("type").asText() + "." + rc.path("name").asText();
        if (actions(rc).contains("delete") && !REPLACED_ON_PURPOSE.contains(resource)) {
          out.add(rc.path("address").asText());
        }
      }
      return out;
    }

    /** Whether a change sets a known value of {@code key} to another known value. */
    static boolean setDifferently(JsonNode rc, String key) {
      return differs(
          rc.path("change").path("before").path(key), rc.path("change").path("after").path(key));
    }

    /**
     * Known values that differ; a missing or null value on the after side is unknown, an empty map
     * for a null one no change.
     */
    private static boolean differs(JsonNode before, JsonNode after) {
      if (after.isMissingNode() || after.isNull()) {
        return false;
      }
      // The provider reads an unset map back as empty (root_block_device's tags: null to {}).
      if ((before.isMissingNode() || before.isNull())
          && after.isContainerNode()
          && after.isEmpty()) {
        return false;
      }
      if (before.isContainerNode() && after.isContainerNode()) {
        if (before.isArray() && before.size() != after.size()) {
          return true;
        }
        java.util.Iterator<String> names = after.fieldNames();
        while (names.hasNext()) {
          String n = names.next();
          if (differs(before.path(n), after.get(n))) {
            return true;
          }
        }
        for (int i = 0; before.isArray() && i < after.size(); i++) {
          if (differs(before.get(i), after.get(i))) {
            return true;
          }
        }
        return false;
      }
      return !before.equals(after);
    }

    /** The attributes a change sets to another value, or leaves to be known after apply. */
    static TreeSet<String> changed(JsonNode rc) {
      JsonNode c = rc.path("change");
      TreeSet<String> out = new TreeSet<>();
      TreeSet<String> keys = new TreeSet<>();
      c.path("before").fieldNames().forEachRemaining(keys::add);
      c.path("after").fieldNames().forEachRemaining(keys::add);
      for (String k : keys) {
        if (!c.path("before").path(k).equals(c.path("after").path(k))
            || c.path("after_unknown").path(k).asBoolean(false)) {
          out.add(k);
        }
      }
      return out;
    }

    void assertNothingDestroyedOrReplaced() {
      assertEquals(List.of(), destroyed(), label + ": destroyed or replaced\n" + summary());
      // Every resource of the previous state is planned, at its address or moved from it.
      TreeSet<String> planned = new TreeSet<>();
      for (JsonNode rc : changes()) {
        planned.add(rc.path("previous_address").asText(rc.path("address").asText()));
      }
      TreeSet<String> missing = new TreeSet<>(previousAddresses);
      missing.removeAll(planned);
      assertEquals(new TreeSet<>(), missing, label + ": previous resources the plan lost");
      // In place, only what leaves a running node as it is: a launch template's new version
      // (aws_instance ignores launch_template; e.g. the EKS join script now names a pool as the
      // spec writes it, l4-infer where the counted layout wrote l4_infer) and a node's tags (the
      // SSM transfer bucket's new name in gpugen:ssm-bucket). A kubeadm control-plane instance
      // also moves into its own security group, which EC2 changes on the running instance; its
      // root volume's computed attributes are then read again (unknown, none set otherwise).
      for (JsonNode rc : changes()) {
        if (actions(rc).contains("update")) {
          String type = rc.path("type").asText();
          boolean controlPlane =
              rc.path("address").asText().startsWith("aws_instance.control_plane[");
          TreeSet<String> changed = changed(rc);
          if (controlPlane && !setDifferently(rc, "root_block_device")) {
            changed.removeAll(java.util.Set.of("vpc_security_group_ids", "root_block_device"));
          }
          assertTrue(
              type.equals("aws_launch_template")
                  // A rule retargeted at the control plane's own group: no node is touched.
                  || type.startsWith("aws_vpc_security_group_") && type.endsWith("_rule")
                  || type.equals("aws_instance")
                      && java.util.Set.of("tags", "tags_all").containsAll(changed)
                  // An EKS add-on's Terraform-only settings (preserve, timeouts) and CoreDNS's
                  // placement on the system pool: pods move, no node is touched.
                  || type.equals("aws_eks_addon")
                      && java.util.Set.of("configuration_values", "preserve", "timeouts")
                          .containsAll(changed),
              label
                  + ": an in-place change to "
                  + rc.path("address").asText()
                  + " "
                  + changed
                  + (controlPlane
                      ? " root_block_device "
                          + rc.path("change").path("before").path("root_block_device")
                          + " -> "
                          + rc.path("change").path("after").path("root_block_device")
                      : ""));
        }
      }
      System.out.println(label + ": " + summary());
    }

    /** Every node and launch template moved to the pool module and plans no change. */
    void assertNodesMovedUnchanged() {
      int nodes = 0;
      for (ClusterSpec.Pool pool : spec.pools()) {
        String was = pool.name().replace('-', '_');
        String module = "module.pool[" + TerraformPlan.hclString(pool.name()) + "]";
        for (int i = 0; i < pool.count(); i++) {
          JsonNode rc =
              assertMoved(
                  "aws_instance." + was + "[" + i + "]",
                  module + ".aws_instance.this[\"" + i + "\"]");
          // Unchanged but for its tags (see assertNothingDestroyedOrReplaced).
          assertTrue(
              actions(rc).equals(List.of("no-op"))
                  || actions(rc).equals(List.of("update"))
                      && java.util.Set.of("tags", "tags_all").containsAll(changed(rc)),
              label + ": " + rc.path("address") + " " + actions(rc) + " " + changed(rc));
          nodes++;
        }
        JsonNode lt =
            assertMoved("aws_launch_template." + was, module + ".aws_launch_template.this");
        // In place at most: a node ignores its template's changes (ignore_changes).
        assertTrue(
            List.of(List.of("no-op"), List.of("update")).contains(actions(lt)),
            label + ": " + lt.path("address") + " " + actions(lt));
      }
      assertTrue(nodes > 0, "the case has nodes");
    }

    /** The planned change at {@code address}. */
    JsonNode change(String address) {
      for (JsonNode rc : changes()) {
        if (rc.path("address").asText().equals(address)) {
          return rc;
        }
      }
      throw new AssertionError(label + ": nothing planned at " + address + "\n" + summary());
    }

    JsonNode assertMoved(String from, String to) {
      for (JsonNode rc : changes()) {
        if (rc.path("address").asText().equals(to)) {
          assertEquals(from, rc.path("previous_address").asText(), label + ": " + to);
          assertTrue(!actions(rc).contains("delete"), label + ": " + to + " " + actions(rc));
          return rc;
        }
      }
      throw new AssertionError(label + ": nothing planned at " + to + "\n" + summary());
    }

    String summary() {
      Map<String, Integer> counts = new TreeMap<>();
      int moved = 0;
      StringBuilder changed = new StringBuilder();
      for (JsonNode rc : changes()) {
        String a = String.join("+", actions(rc));
        counts.merge(a, 1, Integer::sum);
        if (rc.has("previous_address")) {
          moved++;
        }
        if (!a.equals("no-op")) {
          changed.append("\n  ").append(a).append(' ').append(rc.path("address").asText());
          if (rc.path("change").has("replace_paths")) {
            changed.append(" (replaced for ").append(rc.path("change").path("replace_paths"));
            changed.append(", ").append(rc.path("action_reason").asText()).append(')');
          }
        }
      }
      return counts + ", " + moved + " moved" + changed;
    }

    static List<String> actions(JsonNode rc) {
      List<String> out = new ArrayList<>();
      rc.path("change").path("actions").forEach(a -> out.add(a.asText()));
      return out;
    }
  }

  /**
   * A spread cluster of the counted layout, which named every pool's group {@code NAME-ENV-POOL}
   * whatever the strategy: today's render into the folder holding that release's manifest keeps the
   * name (a new one would create a new group and replace every node launched into the old), where a
   * render that knows no previous one names the group after its strategy.
   */
  @Test
  void aSpreadClusterOfTheCountedLayoutKeepsItsPlacementGroupName() throws Exception {
    Path dir = Files.createTempDirectory(scratch, "spread");
    Path spec = dir.resolve("cluster.yaml");
    String text =
        Files.readString(
            Rendered.GOLDEN.resolve("aws-kubeadm").resolve("spec.yaml"), StandardCharsets.UTF_8);
    assertTrue(text.contains("\nnetwork:\n"), "the spec has a network section");
    Files.writeString(
        spec,
        text.replace("\nnetwork:\n", "\nnetwork:\n  placement: spread\n"),
        StandardCharsets.UTF_8);
    Path folder = dir.resolve("render");
    Files.createDirectories(folder);
    // The manifest of the release before, as its render of this spec wrote it: the values it
    // judged a change by (network.placement among them), no accepted node settings, no group name.
    ObjectNode manifest = JSON.createObjectNode().put("generator", "gpugen");
    manifest.putObject("files");
    ObjectNode source = manifest.putObject("source").put("spec", "../cluster.yaml");
    source
        .putObject("values")
        .put("cloud.image", "ubuntu-22.04")
        .put("cloud.sshKeyName", "ops")
        .put("network.placement", "spread")
        .put("pools[h100].count", "2")
        .put("pools[h100].instanceType", "p5.48xlarge")
        .put("pools[h100].market", "on-demand");
    Files.writeString(
        folder.resolve(".gpugen-manifest.json"), manifest.toPrettyString(), StandardCharsets.UTF_8);
    dev.gpugen.Cli cli = dev.gpugen.Cli.run("render", spec.toString(), "-o", folder.toString());
    assertEquals(0, cli.exit(), cli.toString());
    SortedMap<String, String> today = new TreeMap<>();
    Path tf = folder.resolve("terraform");
    try (Stream<Path> s = Files.walk(tf)) {
      for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
        today.put(
            tf.relativize(f).toString().replace('\\', '/'),
            Files.readString(f, StandardCharsets.UTF_8));
      }
    }
    assertTrue(
        today.get("terraform.tfvars.json").contains("\"placement_group\": \"kadm-prod-h100\""),
        "the group keeps the name the previous release gave it");
    Case c = new Case("golden aws-kubeadm, placement spread", spec, Optional.empty());
    assertTrue(
        c.terraform()
            .get("terraform.tfvars.json")
            .contains("\"placement_group\": \"kadm-prod-h100-spread\""),
        "without a previous render the name follows the strategy");
    Plan plan =
        upgrade(
            "aws-kubeadm",
            "aws-kubeadm spread",
            previous ->
                previous.put(
                    "terraform.tfvars.json",
                    previous
                        .get("terraform.tfvars.json")
                        .replace(
                            "\"placement_strategy\": \"cluster\"",
                            "\"placement_strategy\": \"spread\"")),
            c,
            today,
            false,
            // The spread cluster's state is the cluster one's with its group's strategy: the
            // previous spread render must then plan nothing against it, which spares an apply.
            Optional.of(MovedStateTest::spread));
    plan.assertNothingDestroyedOrReplaced();
    plan.assertNodesMovedUnchanged();
    JsonNode group =
        plan.assertMoved(
            "aws_placement_group.h100[0]", "module.pool[\"h100\"].aws_placement_group.this[0]");
    assertEquals(List.of("no-op"), Plan.actions(group), "the spread group plans no change");
    assertEquals(
        "spread", group.path("change").path("after").path("strategy").asText(), "its strategy");
  }

  private Plan upgrade(String golden, boolean eks, String... leaveOut) throws Exception {
    Case c =
        new Case(
            "golden " + golden,
            Rendered.GOLDEN.resolve(golden).resolve("spec.yaml"),
            Optional.empty());
    SortedMap<String, String> today = c.terraform();
    for (String f : leaveOut) {
      today.remove(f);
    }
    return upgrade(golden, golden, previous -> {}, c, today, eks, Optional.empty());
  }

  /** {@code state} with the h100 pool's placement group of strategy spread. */
  private static ObjectNode spread(ObjectNode state) {
    ObjectNode out = state.deepCopy();
    int groups = 0;
    for (JsonNode r : out.path("resources")) {
      if (r.path("type").asText().equals("aws_placement_group")
          && r.path("name").asText().equals("h100")) {
        for (JsonNode i : r.path("instances")) {
          assertEquals("cluster", i.path("attributes").path("strategy").asText(), i::toString);
          ((ObjectNode) i.path("attributes")).put("strategy", "spread");
          groups++;
        }
      }
    }
    assertEquals(1, groups, "the cluster state has the pool's one placement group");
    return out;
  }

  /**
   * Today's render {@code today} of {@code c} planned against the converged state of the previous
   * layout of {@code golden}, its files edited by {@code edit} (the state cached under {@code
   * key}). With {@code from}, that state is {@code golden}'s own converged state so edited instead
   * of an apply, and the edited previous render must plan nothing against it.
   */
  private Plan upgrade(
      String golden,
      String key,
      java.util.function.Consumer<SortedMap<String, String>> edit,
      Case c,
      SortedMap<String, String> today,
      boolean eks,
      Optional<java.util.function.UnaryOperator<ObjectNode>> from)
      throws Exception {
    ClusterSpec spec = c.read();
    String region = spec.cloud().region().orElseThrow();
    try (AwsReadsStandIn aws = AwsReadsStandIn.start()) {
      Optional<ObjectNode> start = Optional.empty();
      if (from.isPresent()) {
        start =
            Optional.of(
                from.get()
                    .apply(converged(golden, golden, p -> {}, region, eks, aws, Optional.empty())));
      }
      ObjectNode state = converged(golden, key, edit, region, eks, aws, start);
      List<String> addresses = addresses(state);
      // 3. Today's render against that state.
      TerraformPlan.Workspace now =
          TerraformPlan.init(bundle(golden, Files.createTempDirectory(scratch, "today")), today);
      prepare(now, aws, eks);
      holdFingerprint(now, golden);
      JsonNode p = plan(now, state);
      assertTrue(
          aws.calls().stream()
              .allMatch(
                  call ->
                      call.startsWith("sts:GetCallerIdentity")
                          || call.startsWith("ec2:DescribeAvailabilityZones")
                          || call.startsWith("eks:DescribeAddonVersions")),
          "the plans read only what the stand-in answers: " + aws.calls());
      return new Plan(c.label(), spec, p, addresses);
    }
  }

  /**
   * Steps 1 and 2, once per key: the previous render applied by terraform test with the mock
   * provider (or {@code start}, a state made so before), then converged with the real provider's
   * plans of that render until they are empty.
   */
  private static ObjectNode converged(
      String golden,
      String key,
      java.util.function.Consumer<SortedMap<String, String>> edit,
      String region,
      boolean eks,
      AwsReadsStandIn aws,
      Optional<ObjectNode> start)
      throws Exception {
    ObjectNode cached = CONVERGED.get(key);
    if (cached != null) {
      return cached;
    }
    SortedMap<String, String> previous = read(PREVIOUS.resolve(golden));
    edit.accept(previous);
    // The previous render pinned hashicorp/aws "~> 6.25"; the provider here is 5.100, today's
    // pinned range, which the copy takes so that init can install it (the layout is unchanged).
    previous.put(
        "versions.tf",
        previous
            .get("versions.tf")
            .replace("version = \"~> 6.25\"", "version = \">= 5.100, < 6.0\""));
    TerraformPlan.Workspace old =
        TerraformPlan.init(
            bundle(golden, Files.createTempDirectory(scratch, "previous")), previous);
    ObjectNode state;
    if (start.isPresent()) {
      state = start.get();
    } else {
      RealTools.Result applied = old.test("apply", mockApply(region, eks), "-json", "-verbose");
      state = state(applied.output());
    }
    prepare(old, aws, eks);
    for (int round = 0; ; round++) {
      JsonNode p = plan(old, state);
      List<String> pending = pending(p);
      if (pending.isEmpty()) {
        CONVERGED.put(key, state);
        return state;
      }
      assertTrue(
          start.isEmpty(),
          golden + ": the previous render would still change the state it starts from: " + pending);
      assertTrue(
          round < 4,
          golden + ": the previous layout does not converge on its own state: " + pending);
      state = converge(state, p);
    }
  }

  /**
   * Today's render's ansible/ folder beside the terraform/ one the workspace gets: pull mode from
   * S3 uploads its files (a plan hashes each). Both layouts see the same files, as a cluster's
   * render folder has them when it is upgraded.
   */
  private static Path bundle(String golden, Path dir) throws IOException {
    Case c =
        new Case(golden, Rendered.GOLDEN.resolve(golden).resolve("spec.yaml"), Optional.empty());
    for (Map.Entry<String, RenderedTree.File> f : c.render().files().entrySet()) {
      if (f.getKey().startsWith("ansible/")) {
        Path p = dir.resolve(f.getKey());
        Files.createDirectories(p.getParent());
        Files.write(p, f.getValue().content());
      }
    }
    return dir;
  }

  /** The .tf files, tfvars and scripts of a folder, by name. */
  private static SortedMap<String, String> read(Path dir) throws IOException {
    SortedMap<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : s.sorted().toList()) {
        out.put(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /**
   * The apply: data sources answered as the stand-in answers them later (zones, account), resource
   * ids and ARNs in the shapes the provider validates where another resource's argument takes them,
   * and the image pinned, so that no plan needs Canonical's AMI lookup.
   */
  private static String mockApply(String region, boolean eks) {
    StringBuilder zones = new StringBuilder();
    for (String z : AwsReadsStandIn.zones(region)) {
      zones.append(zones.length() == 0 ? "" : ", ").append('"').append(z).append('"');
    }
    return """
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
              account_id = "ACCOUNT"
            }
          }
          mock_data "aws_iam_policy_document" {
            defaults = {
              json = "{\\"Version\\":\\"2012-10-17\\",\\"Statement\\":[]}"
            }
          }
          mock_data "aws_availability_zones" {
            defaults = {
              names = [ZONES]
            }
          }
          mock_data "aws_eks_addon_version" {
            defaults = {
              version = "ADDON"
            }
          }
          mock_resource "aws_instance" {
            defaults = {
              id               = "i-0123456789abcdef0"
              user_data        = null
              user_data_base64 = null
            }
          }
          mock_resource "aws_launch_template" {
            defaults = {
              id = "lt-0123456789abcdef0"
            }
          }
          mock_resource "aws_security_group" {
            defaults = {
              id  = "sg-0123456789abcdef0"
              arn = "arn:aws:ec2:REGION:ACCOUNT:security-group/sg-0123456789abcdef0"
            }
          }
          mock_resource "aws_subnet" {
            defaults = {
              id  = "subnet-0123456789abcdef0"
              arn = "arn:aws:ec2:REGION:ACCOUNT:subnet/subnet-0123456789abcdef0"
            }
          }
          mock_resource "aws_vpc" {
            defaults = {
              id  = "vpc-0123456789abcdef0"
              arn = "arn:aws:ec2:REGION:ACCOUNT:vpc/vpc-0123456789abcdef0"
            }
          }
          mock_resource "aws_iam_role" {
            defaults = {
              arn = "arn:aws:iam::ACCOUNT:role/gpugen-mock"
            }
          }
          mock_resource "aws_kms_key" {
            defaults = {
              arn = "arn:aws:kms:REGION:ACCOUNT:key/0123abcd-0123-0123-0123-0123456789ab"
            }
          }
          mock_resource "aws_s3_bucket" {
            defaults = {
              arn = "arn:aws:s3:::gpugen-mock"
            }
          }
          mock_resource "aws_s3_bucket_lifecycle_configuration" {
            defaults = {
              transition_default_minimum_object_size = "all_storage_classes_128K"
            }
          }
          mock_resource "aws_eks_cluster" {
            defaults = {
              arn                   = "arn:aws:eks:REGION:ACCOUNT:cluster/gpugen-mock"
              endpoint              = "https://0123456789ABCDEF0123.gr7.REGION.eks.amazonaws.com"
              identity              = [{ oidc = [{ issuer = "https://oidc.eks.REGION.amazonaws.com/id/0123456789ABCDEF0123" }] }]
              certificate_authority = [{ data = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==" }]
            }
          }
          mock_resource "aws_iam_openid_connect_provider" {
            defaults = {
              arn = "arn:aws:iam::ACCOUNT:oidc-provider/oidc.eks.REGION.amazonaws.com/id/0123456789ABCDEF0123"
            }
          }
          mock_resource "aws_lb" {
            defaults = {
              arn      = "arn:aws:elasticloadbalancing:REGION:ACCOUNT:loadbalancer/net/kapi-0123/0123456789abcdef"
              dns_name = "internal-kapi-0123456789.REGION.elb.amazonaws.com"
            }
          }
          mock_resource "aws_lb_target_group" {
            defaults = {
              arn = "arn:aws:elasticloadbalancing:REGION:ACCOUNT:targetgroup/kapi-0123/0123456789abcdef"
            }
          }
        }

        run "apply" {
          command = apply

          variables {
            image = "AMI"
        EKS  }
        }
        """
        .replace("ZONES", zones)
        .replace("REGION", region)
        .replace("ACCOUNT", AwsReadsStandIn.ACCOUNT)
        .replace("ADDON", AwsReadsStandIn.ADDON_VERSION)
        .replace("AMI", AMI)
        .replace("EKS", eks ? "    eks_addon_versions = " + addonVersions() + "\n" : "");
  }

  private static String addonVersions() {
    StringBuilder b = new StringBuilder("{ ");
    for (String a : List.of("coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni")) {
      b.append(b.length() > 2 ? ", " : "")
          .append('"')
          .append(a)
          .append("\" = \"")
          .append(AwsReadsStandIn.ADDON_VERSION)
          .append('"');
    }
    return b.append(" }").toString();
  }

  /**
   * A folder ready to plan offline: the provider pointed at the stand-in (an override file, which
   * Terraform merges into providers.tf's provider block), and the pinned image and add-on versions
   * the apply used (an auto-loaded tfvars file; a variable the layout does not declare is only a
   * warning there).
   */
  private static void prepare(TerraformPlan.Workspace ws, AwsReadsStandIn aws, boolean eks)
      throws IOException {
    String endpoint = aws.endpoint().toString();
    Files.writeString(
        ws.dir().resolve("proof_override.tf"),
        """
        provider "aws" {
          access_key                  = "mock"
          secret_key                  = "mock"
          skip_credentials_validation = true
          skip_requesting_account_id  = true
          skip_metadata_api_check     = true
          skip_region_validation      = true

          endpoints {
            ec2 = "URL"
            eks = "URL"
            sts = "URL"
          }
        }
        """
            .replace("URL", endpoint),
        StandardCharsets.UTF_8);
    ObjectNode vars = JSON.createObjectNode().put("image", AMI);
    // The proof's own image stands in for the lookup: not a change of node settings the
    // replacement guard should answer (no pool listed is no pool checked).
    vars.putObject("accepted_node_settings");
    if (eks) {
      ObjectNode addons = vars.putObject("eks_addon_versions");
      for (String a : List.of("coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni")) {
        addons.put(a, AwsReadsStandIn.ADDON_VERSION);
      }
    }
    Files.writeString(
        ws.dir().resolve("proof.auto.tfvars.json"), vars.toPrettyString(), StandardCharsets.UTF_8);
  }

  /**
   * The spec's fingerprint, and with it the pull-mode bundle's prefix, moves with every change of
   * the deployed values (here: the defaults today's grammar adds), and pull mode then uploads a new
   * bundle under the new prefix by design (README, "Upgrade note: the fingerprint"). It has nothing
   * to do with the layout, so today's plan keeps the previous render's prefix.
   */
  private static void holdFingerprint(TerraformPlan.Workspace ws, String golden)
      throws IOException {
    JsonNode previous =
        JSON.readTree(
            Files.readString(
                PREVIOUS.resolve(golden).resolve("terraform.tfvars.json"), StandardCharsets.UTF_8));
    if (previous.has("pull_bundle_prefix")) {
      Path auto = ws.dir().resolve("proof.auto.tfvars.json");
      ObjectNode vars = (ObjectNode) JSON.readTree(auto.toFile());
      vars.set("pull_bundle_prefix", previous.path("pull_bundle_prefix"));
      Files.writeString(auto, vars.toPrettyString(), StandardCharsets.UTF_8);
    }
  }

  /** terraform plan -refresh=false against {@code state}: the plan as terraform show -json. */
  private static JsonNode plan(TerraformPlan.Workspace ws, ObjectNode state)
      throws IOException, InterruptedException {
    Files.writeString(
        ws.dir().resolve("terraform.tfstate"), state.toPrettyString(), StandardCharsets.UTF_8);
    Duration timeout = Duration.ofMinutes(10);
    ws.run(
            timeout,
            "plan",
            "-refresh=false",
            "-input=false",
            "-lock=false",
            "-no-color",
            "-out=upgrade.tfplan")
        .assertOk();
    String shown = ws.run(timeout, "show", "-json", "upgrade.tfplan").assertOk().output();
    return JSON.readTree(shown.substring(shown.indexOf('{')));
  }

  /** The managed resources a plan would still change. */
  private static List<String> pending(JsonNode plan) {
    List<String> out = new ArrayList<>();
    plan.path("resource_changes")
        .forEach(
            rc -> {
              if (rc.path("mode").asText().equals("managed")
                  && !Plan.actions(rc).equals(List.of("no-op"))) {
                out.add(Plan.actions(rc) + " " + rc.path("address").asText());
              }
            });
    return out;
  }

  /**
   * The state terraform test printed (the {@code test_state} message of {@code -json -verbose}, in
   * {@code terraform show -json}'s state format), as a version 4 state file of its managed
   * resources.
   */
  static ObjectNode state(String output) throws IOException {
    JsonNode shown = null;
    for (String line : output.split("\n")) {
      if (line.startsWith("{")) {
        JsonNode m = JSON.readTree(line);
        if (m.path("type").asText().equals("test_state")) {
          shown = m.path("test_state");
        }
      }
    }
    assertTrue(shown != null, "terraform test printed no state:\n" + output);
    Map<String, ObjectNode> resources = new TreeMap<>();
    List<JsonNode> modules = new ArrayList<>(List.of(shown.path("root_module")));
    while (!modules.isEmpty()) {
      JsonNode module = modules.remove(0);
      module.path("child_modules").forEach(modules::add);
      for (JsonNode r : module.path("resources")) {
        if (!r.path("mode").asText().equals("managed")) {
          continue;
        }
        String key =
            module.path("address").asText("")
                + " "
                + r.path("type").asText()
                + "."
                + r.path("name").asText();
        ObjectNode resource =
            resources.computeIfAbsent(
                key,
                k -> {
                  ObjectNode n = JSON.createObjectNode();
                  if (module.has("address")) {
                    n.put("module", module.path("address").asText());
                  }
                  n.put("mode", "managed")
                      .put("type", r.path("type").asText())
                      .put("name", r.path("name").asText())
                      .put("provider", "provider[\"registry.terraform.io/hashicorp/aws\"]")
                      .putArray("instances");
                  return n;
                });
        ObjectNode instance = ((ArrayNode) resource.path("instances")).addObject();
        if (r.has("index")) {
          instance.set("index_key", r.path("index"));
        }
        instance.put("schema_version", r.path("schema_version").asInt());
        instance.set("attributes", r.path("values"));
        instance.putArray("sensitive_attributes");
      }
    }
    ObjectNode state = JSON.createObjectNode();
    state
        .put("version", 4)
        .put("terraform_version", "1.11.4")
        .put("serial", 1)
        .put("lineage", "00000000-0000-4000-8000-000000000000")
        .putObject("outputs");
    ArrayNode list = state.putArray("resources");
    resources.values().forEach(list::add);
    return state;
  }

  /** Every resource instance address of a state file. */
  static List<String> addresses(ObjectNode state) {
    List<String> out = new ArrayList<>();
    for (JsonNode r : state.path("resources")) {
      for (JsonNode i : r.path("instances")) {
        out.add(address(r, i));
      }
    }
    return out;
  }

  private static String address(JsonNode r, JsonNode instance) {
    String a =
        (r.has("module") ? r.path("module").asText() + "." : "")
            + r.path("type").asText()
            + "."
            + r.path("name").asText();
    JsonNode key = instance.path("index_key");
    if (key.isNumber()) {
      a += "[" + key.asInt() + "]";
    } else if (key.isTextual()) {
      a += "[" + TerraformPlan.hclString(key.asText()) + "]";
    }
    return a;
  }

  /** The state as the plan says an apply would leave it: every known planned value written in. */
  static ObjectNode converge(ObjectNode state, JsonNode plan) {
    Map<String, JsonNode> changes = new TreeMap<>();
    plan.path("resource_changes")
        .forEach(
            rc -> {
              if (rc.path("mode").asText().equals("managed")) {
                changes.put(rc.path("previous_address").asText(rc.path("address").asText()), rc);
              }
            });
    ObjectNode out = state.deepCopy();
    out.put("serial", out.path("serial").asInt() + 1);
    for (JsonNode r : out.path("resources")) {
      for (JsonNode i : r.path("instances")) {
        JsonNode rc = changes.get(address(r, i));
        if (rc != null && !rc.path("change").path("after").isNull()) {
          ((ObjectNode) i)
              .set(
                  "attributes",
                  merge(
                      i.path("attributes"),
                      rc.path("change").path("after"),
                      rc.path("change").path("after_unknown")));
        }
      }
    }
    return out;
  }

  /** The planned value where it is known, the prior one where the plan leaves it unknown. */
  static JsonNode merge(JsonNode prior, JsonNode after, JsonNode unknown) {
    if (unknown.isBoolean() && unknown.asBoolean()) {
      return prior.isMissingNode() ? NullNode.getInstance() : prior;
    }
    if (after.isObject() || unknown.isObject()) {
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      TreeSet<String> keys = new TreeSet<>();
      after.fieldNames().forEachRemaining(keys::add);
      unknown.fieldNames().forEachRemaining(keys::add);
      for (String k : keys) {
        o.set(k, merge(prior.path(k), after.path(k), unknown.path(k)));
      }
      if (!after.isObject() && !unknown.isObject()) {
        return after;
      }
      return o;
    }
    if (after.isArray() || unknown.isArray()) {
      ArrayNode a = JsonNodeFactory.instance.arrayNode();
      int n = Math.max(after.size(), unknown.size());
      for (int i = 0; i < n; i++) {
        a.add(merge(prior.path(i), after.path(i), unknown.path(i)));
      }
      return a;
    }
    return after.isMissingNode() ? NullNode.getInstance() : after;
  }
}
