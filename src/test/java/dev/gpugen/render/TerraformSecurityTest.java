package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gpugen.testing.RealToolsTest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * What checkov and trivy would flag, asserted on the parsed HCL of every golden case: IMDSv2
 * (CKV_AWS_79, AVD-AWS-0028/0130), encrypted root volumes (CKV_AWS_8, AVD-AWS-0131), no ingress
 * from everywhere (CKV_AWS_24/277, AVD-AWS-0107), descriptions on security groups and rules
 * (CKV_AWS_23), no public addresses (CKV_AWS_88), the S3 public access block, the owner-pinned AMI
 * lookup (AVD-AWS-0344), an instance profile on every node (CKV2_AWS_41), and no user data or
 * credentials anywhere.
 */
@RealToolsTest
class TerraformSecurityTest {
  static final String CANONICAL = "099720109477";

  @TestFactory
  Stream<DynamicTest> secureDefaults() throws IOException {
    return TerraformSchemaTest.all().map(r -> DynamicTest.dynamicTest(r.label(), () -> check(r)));
  }

  private static void check(Rendered r) {
    Map<String, JsonNode> parsed = r.parsed();
    List<String> problems = new ArrayList<>();
    int[] instances = {0};
    int[] templates = {0};
    JsonNode call = parsed.get("pools.tf").path("module").path("pool").path(0);
    boolean pull = r.tfvars().path("pull_source").isTextual();
    boolean eks = r.tfvars().path("eks_enabled").asBoolean(false);

    resources(
        parsed,
        "aws_instance",
        (name, body) -> {
          String at = "aws_instance." + name;
          if (name.equals("control_plane")) {
            controlPlane(problems, at, body);
            return;
          }
          instances[0]++;
          expectFromVariable(
              problems,
              r,
              call,
              at + ".metadata_options.http_tokens",
              body,
              "required",
              "metadata_options",
              "http_tokens");
          expectIn(
              problems,
              at + ".metadata_options.http_endpoint",
              body,
              "enabled",
              "metadata_options",
              "http_endpoint");
          expectFromVariable(
              problems,
              r,
              call,
              at + ".root_block_device.encrypted",
              body,
              true,
              "root_block_device",
              "encrypted");
          expectIn(
              problems,
              at + ".root_block_device.delete_on_termination",
              body,
              true,
              "root_block_device",
              "delete_on_termination");
          if (!body.path("iam_instance_profile").isTextual()) {
            problems.add(at + " has no iam_instance_profile");
          }
          for (String forbidden :
              List.of("user_data", "user_data_base64", "associate_public_ip_address")) {
            if (body.has(forbidden)) {
              problems.add(at + " sets " + forbidden);
            }
          }
          if (!body.path("lifecycle").path(0).path("ignore_changes").toString().contains("ami")) {
            problems.add(at + " would be replaced by every new Ubuntu AMI");
          }
        });

    resources(
        parsed,
        "aws_launch_template",
        (name, body) -> {
          templates[0]++;
          String at = "aws_launch_template." + name;
          expectFromVariable(
              problems,
              r,
              call,
              at + ".metadata_options.http_tokens",
              body,
              "required",
              "metadata_options",
              "http_tokens");
          // User data only in pull mode (gpugen's rendered script of the pool) and with EKS (the
          // pool's join script, then in pull mode that script): nothing else.
          if (!body.path("user_data").asText().equals("${var.user_data}")
              || !call.path("user_data").asText().equals("${local.pool_user_data[each.key]}")) {
            problems.add(at + " takes user data from elsewhere: " + body.path("user_data"));
          }
          JsonNode nics =
              body.path("dynamic").path("network_interfaces").path(0).path("content").path(0);
          if (!nics.path("associate_public_ip_address")
              .equals(com.fasterxml.jackson.databind.node.BooleanNode.FALSE)) {
            problems.add(at + " network interfaces may get public addresses");
          }
          if (!nics.path("security_groups").asText().equals("${var.security_group_ids}")
              || !call.path("security_group_ids")
                  .toString()
                  .equals("[\"${aws_security_group.nodes.id}\"]")) {
            problems.add(at + " network interfaces lack the node security group (EFA needs it)");
          }
        });
    assertEquals(1, instances[0], "one aws_instance resource for the nodes: the pool module's");
    assertEquals(1, templates[0], "one launch template resource: the pool module's");
    userData(r, parsed, pull, eks, problems);

    // Security groups and their rules: a description on each, never ingress from everywhere.
    for (String type :
        List.of(
            "aws_security_group",
            "aws_vpc_security_group_ingress_rule",
            "aws_vpc_security_group_egress_rule")) {
      resources(
          parsed,
          type,
          (name, body) -> {
            if (!body.path("description").isTextual()
                || body.path("description").asText().isBlank()) {
              problems.add(type + "." + name + " has no description");
            }
            if (body.has("ingress") || body.has("egress")) {
              problems.add(type + "." + name + " has inline rules (use the rule resources)");
            }
          });
    }
    resources(
        parsed,
        "aws_vpc_security_group_ingress_rule",
        (name, body) -> {
          String cidr = body.path("cidr_ipv4").asText("");
          boolean ok =
              body.has("referenced_security_group_id")
                  || (List.of("nodes_ssh", "control_plane_ssh").contains(name)
                      && cidr.equals("${each.value}")
                      && body.path("for_each").asText().contains("toset(var.ssh_ingress_cidrs)")
                      && body.path("from_port").asInt() == 22
                      && body.path("to_port").asInt() == 22)
                  // kubeadm on AWS: the API server, from the controller's CIDRs
                  // (kubernetes.apiIngressCidrs, which sec-api-open-to-world keeps narrow), port
                  // 6443 only.
                  || (List.of("kube_api_lb_from_controller", "control_plane_api_from_controller")
                          .contains(name)
                      && cidr.equals("${each.value}")
                      && body.path("for_each")
                          .asText()
                          .contains("toset(var.kube_api_ingress_cidrs)")
                      && body.path("from_port").asText().equals("${local.kube_api_port}")
                      && body.path("to_port").asText().equals("${local.kube_api_port}"))
                  // EKS: the private endpoint, from the same CIDRs, port 443 only.
                  || (name.equals("eks_from_controller")
                      && cidr.equals("${each.value}")
                      && body.path("for_each")
                          .asText()
                          .contains("toset(var.kube_api_ingress_cidrs)")
                      && body.path("from_port").asInt() == 443
                      && body.path("to_port").asInt() == 443);
          if (!ok || body.has("cidr_ipv6")) {
            problems.add("aws_vpc_security_group_ingress_rule." + name + " admits " + body);
          }
        });
    // The only CIDR ingress comes from the spec's sshIngressCidrs and apiIngressCidrs; none of
    // the cases asks for /0.
    for (String v : List.of("ssh_ingress_cidrs", "kube_api_ingress_cidrs")) {
      r.tfvars().path(v).forEach(c -> assertFalse(c.asText().endsWith("/0"), c.asText()));
    }
    String everything = String.join("\n", r.tf().values());
    assertFalse(everything.contains("::/0"), "no IPv6 everywhere rules");

    // EFA: all traffic to and from the node group itself, both ways.
    JsonNode in = resource(parsed, "aws_vpc_security_group_ingress_rule", "nodes_from_nodes");
    JsonNode out = resource(parsed, "aws_vpc_security_group_egress_rule", "nodes_to_nodes");
    for (JsonNode rule : List.of(in, out)) {
      assertEquals("-1", rule.path("ip_protocol").asText());
      assertEquals(
          "${aws_security_group.nodes.id}", rule.path("referenced_security_group_id").asText());
      assertEquals("${aws_security_group.nodes.id}", rule.path("security_group_id").asText());
    }

    // Subnets never hand out public addresses.
    resources(
        parsed,
        "aws_subnet",
        (name, body) -> {
          if (!body.path("map_public_ip_on_launch").isBoolean()
              || body.path("map_public_ip_on_launch").asBoolean()) {
            problems.add("aws_subnet." + name + " maps public IPs");
          }
        });

    // The AMI lookup only finds Canonical's images.
    JsonNode ami =
        parsed.values().stream()
            .map(b -> b.path("data").path("aws_ami").path("ubuntu").path(0))
            .filter(JsonNode::isObject)
            .findFirst()
            .orElseThrow();
    assertEquals(List.of(CANONICAL), texts(ami.path("owners")));
    assertTrue(ami.path("most_recent").asBoolean());

    // The checkpoint bucket: public access blocked in all four ways, encrypted, versioned, TLS.
    JsonNode pab = resource(parsed, "aws_s3_bucket_public_access_block", "checkpoint");
    for (String k :
        List.of(
            "block_public_acls",
            "block_public_policy",
            "ignore_public_acls",
            "restrict_public_buckets")) {
      assertTrue(pab.path(k).isBoolean() && pab.path(k).asBoolean(), "public access block " + k);
    }
    assertEquals(
        "Enabled",
        resource(parsed, "aws_s3_bucket_versioning", "checkpoint")
            .path("versioning_configuration")
            .path(0)
            .path("status")
            .asText());
    assertEquals(
        "${var.kms_key_id == null ? \"AES256\" : \"aws:kms\"}",
        resource(parsed, "aws_s3_bucket_server_side_encryption_configuration", "checkpoint")
            .path("rule")
            .path(0)
            .path("apply_server_side_encryption_by_default")
            .path(0)
            .path("sse_algorithm")
            .asText());
    assertTrue(
        everything.contains("\"aws:SecureTransport\""), "the bucket policy denies plain HTTP");
    checkpointBucketIsTheClustersOwn(parsed);

    // IAM: Session Manager's own actions (no managed policy, whose ssm:GetParameter* on every
    // parameter would let any node read every secret kept in SSM) plus the checkpoint bucket, no
    // wildcard grants.
    // With EKS (eks.tf only), exactly the managed policies AWS requires of an EKS cluster role and
    // of an EKS node role (https://docs.aws.amazon.com/eks/latest/userguide/cluster-iam-role.html ,
    // https://docs.aws.amazon.com/eks/latest/userguide/create-node-role.html).
    String nodeFiles =
        String.join(
            "\n",
            r.tf().entrySet().stream()
                .filter(e -> !e.getKey().equals("eks.tf"))
                .map(java.util.Map.Entry::getValue)
                .toList());
    assertFalse(nodeFiles.contains("iam::aws:policy/"), "no AWS managed policy");
    assertFalse(nodeFiles.contains("aws_iam_role_policy_attachment"), "no managed policy at all");
    if (r.tf().containsKey("eks.tf")) {
      assertEquals(
          java.util.Set.of("eks_cluster", "nodes_eks"),
          parsed
              .get("eks.tf")
              .path("resource")
              .path("aws_iam_role_policy_attachment")
              .properties()
              .stream()
              .map(java.util.Map.Entry::getKey)
              .collect(java.util.stream.Collectors.toSet()),
          "eks.tf attaches managed policies to the cluster role and the node role only");
      String eksTf = r.tf().get("eks.tf");
      assertTrue(
          eksTf.contains("iam::aws:policy/AmazonEKSClusterPolicy\"")
              && eksTf.contains(
                  "[\"AmazonEKSWorkerNodePolicy\", \"AmazonEC2ContainerRegistryReadOnly\","
                      + " \"AmazonEKS_CNI_Policy\"]"),
          "the cluster role gets AmazonEKSClusterPolicy, the node role the three EKS node policies");
      assertEquals(2, eksTf.split("iam::aws:policy/", -1).length - 1, "no other managed policy");
    }
    JsonNode session =
        resourceData(parsed, "aws_iam_policy_document", "nodes_session_manager").path("statement");
    assertEquals(1, session.size(), session.toString());
    assertEquals(
        List.of(
            "ssm:UpdateInstanceInformation",
            "ssmmessages:CreateControlChannel",
            "ssmmessages:CreateDataChannel",
            "ssmmessages:OpenControlChannel",
            "ssmmessages:OpenDataChannel"),
        texts(session.path(0).path("actions")));
    assertFalse(everything.contains("\"ssm:GetParameter"), "nodes read no SSM parameter");
    assertEquals(
        "${data.aws_iam_policy_document.nodes_session_manager.json}",
        resource(parsed, "aws_iam_role_policy", "nodes_session_manager").path("policy").asText());
    for (JsonNode st :
        resourceData(parsed, "aws_iam_policy_document", "nodes_checkpoint").path("statement")) {
      for (JsonNode action : st.path("actions")) {
        assertFalse(action.asText().contains("*"), "wildcard action " + action);
      }
    }

    // kubeadm on AWS: the node role pulls images (the EFA device plugin's) from account
    // 602401143452's ECR repositories only; the authorization token is the one action with no
    // resource to scope.
    if (r.tfvars().path("control_plane_count").asInt() > 0) {
      Map<String, JsonNode> bySid = new java.util.TreeMap<>();
      resourceData(parsed, "aws_iam_policy_document", "nodes_ecr_pull")
          .path("statement")
          .forEach(st -> bySid.put(st.path("sid").asText(), st));
      assertEquals(java.util.Set.of("EcrToken", "EksImagePull"), bySid.keySet());
      assertEquals(
          List.of("ecr:GetAuthorizationToken"), texts(bySid.get("EcrToken").path("actions")));
      assertEquals(
          List.of("ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"),
          texts(bySid.get("EksImagePull").path("actions")));
      assertEquals(
          List.of("arn:${data.aws_partition.current.partition}:ecr:*:602401143452:repository/*"),
          texts(bySid.get("EksImagePull").path("resources")));
      assertEquals(
          "${data.aws_iam_policy_document.nodes_ecr_pull[0].json}",
          resource(parsed, "aws_iam_role_policy", "nodes_ecr_pull").path("policy").asText());
    }

    if (pull) {
      pullIsLeastPrivilege(r, parsed, problems);
    }

    // Lustre: encrypted with the customer key where the deployment type takes one.
    assertEquals(
        "${local.lustre_persistent ? var.kms_key_id : null}",
        resource(parsed, "aws_fsx_lustre_file_system", "this").path("kms_key_id").asText());

    // No credentials anywhere.
    for (String secret : List.of("access_key", "secret_key", "AKIA", "password", "token")) {
      assertFalse(everything.toLowerCase().contains(secret.toLowerCase() + " ="), secret);
    }
    assertEquals(List.of(), problems);
  }

  /**
   * Pull mode: the node role may read the bundle prefix, write the reports prefix and tag only its
   * own instance with gpugen:validation; the user-data scripts carry no credentials and use IMDSv2.
   */
  private static void pullIsLeastPrivilege(
      Rendered r, Map<String, JsonNode> parsed, List<String> problems) {
    JsonNode doc = resourceData(parsed, "aws_iam_policy_document", "nodes_pull");
    Map<String, JsonNode> bySid = new java.util.TreeMap<>();
    doc.path("statement").forEach(st -> bySid.put(st.path("sid").asText(), st));
    // The statements pull_source and the checkpoint bucket switch on are dynamic blocks.
    doc.path("dynamic")
        .path("statement")
        .forEach(d -> d.path("content").forEach(st -> bySid.put(st.path("sid").asText(), st)));
    for (JsonNode st : bySid.values()) {
      for (JsonNode action : st.path("actions")) {
        assertFalse(action.asText().contains("*"), "wildcard action " + action);
      }
      for (JsonNode res : st.path("resources")) {
        assertFalse(res.asText().equals("*"), "statement " + st.path("sid") + " on every resource");
      }
    }
    boolean s3 = r.tfvars().path("pull_source").asText().equals("s3");
    if (s3) {
      assertEquals(
          List.of("${local.checkpoint_bucket.arn}/${var.pull_bundle_prefix}/*"),
          texts(bySid.get("ReadBundle").path("resources")));
      assertEquals(List.of("s3:GetObject"), texts(bySid.get("ReadBundle").path("actions")));
      // No node may rewrite any bundle, whatever else the role allows (checkpoint_write_access).
      JsonNode deny = bySid.get("BundlesAreReadOnly");
      assertEquals("Deny", deny.path("effect").asText());
      assertTrue(
          texts(deny.path("actions")).containsAll(List.of("s3:PutObject", "s3:DeleteObject")));
      assertEquals(
          List.of("${local.checkpoint_bucket.arn}/${dirname(var.pull_bundle_prefix)}/*"),
          texts(deny.path("resources")));
    }
    if (!r.tfvars().path("checkpoint_bucket").isNull()) {
      assertEquals(List.of("s3:PutObject"), texts(bySid.get("WriteReport").path("actions")));
      assertEquals(
          List.of("${local.checkpoint_bucket.arn}/${var.pull_reports_prefix}/$${aws:userid}.json"),
          texts(bySid.get("WriteReport").path("resources")));
    }
    JsonNode tag = bySid.get("TagSelf");
    assertEquals(List.of("ec2:CreateTags"), texts(tag.path("actions")));
    assertEquals(List.of("$${ec2:SourceInstanceARN}"), texts(tag.path("resources")));
    String conditions = tag.path("condition").toString();
    for (String need :
        List.of(
            "ec2:ResourceTag/gpugen:cluster",
            "aws:TagKeys",
            "gpugen:validation",
            "aws:RequestTag/gpugen:validation")) {
      assertTrue(conditions.contains(need), "TagSelf condition " + need + ": " + conditions);
    }
    for (Map.Entry<String, String> f : r.terraform().entrySet()) {
      if (!f.getKey().startsWith("user-data-")) {
        continue;
      }
      String script = f.getValue();
      assertTrue(script.contains("X-aws-ec2-metadata-token: $token"), "IMDSv2 in " + f.getKey());
      assertTrue(script.length() < 16 * 1024, "EC2 user data is at most 16 KB: " + f.getKey());
      for (String secret :
          List.of("AKIA", "aws_secret_access_key", "AWS_SECRET", "password", "x-access-token")) {
        assertFalse(script.contains(secret), secret + " in " + f.getKey());
      }
    }
  }

  /**
   * The policies name the checkpoint bucket as local.checkpoint_bucket: that must be the cluster's
   * own bucket, at whichever of its two addresses storage.retain keeps it, and both carry the
   * spec's bucket name, so a statement scoped to it reaches no other bucket.
   */
  private static void checkpointBucketIsTheClustersOwn(Map<String, JsonNode> parsed) {
    List<String> defined = new ArrayList<>();
    for (JsonNode body : parsed.values()) {
      for (JsonNode locals : body.path("locals")) {
        if (locals.has("checkpoint_bucket")) {
          defined.add(locals.path("checkpoint_bucket").asText());
        }
      }
    }
    assertEquals(
        List.of("${one(concat(aws_s3_bucket.checkpoint, aws_s3_bucket.checkpoint_unprotected))}"),
        defined);
    for (String name : List.of("checkpoint", "checkpoint_unprotected")) {
      assertEquals(
          "${var.checkpoint_bucket}",
          resource(parsed, "aws_s3_bucket", name).path("bucket").asText(),
          "aws_s3_bucket." + name);
    }
  }

  private static void resources(
      Map<String, JsonNode> parsed, String type, BiConsumer<String, JsonNode> f) {
    for (JsonNode body : parsed.values()) {
      for (Map.Entry<String, JsonNode> e : body.path("resource").path(type).properties()) {
        for (JsonNode b : e.getValue()) {
          f.accept(e.getKey(), b);
        }
      }
    }
  }

  private static JsonNode resource(Map<String, JsonNode> parsed, String type, String name) {
    return parsed.values().stream()
        .map(b -> b.path("resource").path(type).path(name).path(0))
        .filter(JsonNode::isObject)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + "." + name));
  }

  private static JsonNode resourceData(Map<String, JsonNode> parsed, String type, String name) {
    return parsed.values().stream()
        .map(b -> b.path("data").path(type).path(name).path(0))
        .filter(JsonNode::isObject)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no data." + type + "." + name));
  }

  /**
   * A setting the spec may change: the attribute must be exactly one variable of the pool module,
   * which the module call passes from one root variable (or from the pool's entry of var.pools),
   * and both that variable's default and the value the spec rendered into terraform.tfvars.json
   * (for every pool) must be the secure one (checkov and trivy read variable defaults and tfvars
   * the same way).
   */
  private static void expectFromVariable(
      List<String> problems,
      Rendered r,
      JsonNode call,
      String what,
      JsonNode body,
      Object want,
      String block,
      String key) {
    String expr = body.path(block).path(0).path(key).asText();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("^\\$\\{var\\.([a-z0-9_]+)(\\.[a-z0-9_]+)?\\}$")
            .matcher(expr);
    if (!m.matches()) {
      problems.add(what + " is " + expr + ", want a single variable");
      return;
    }
    String passed = call.path(m.group(1)).asText();
    String attribute = m.group(2) == null ? "" : m.group(2).substring(1);
    java.util.regex.Matcher root =
        java.util.regex.Pattern.compile("^\\$\\{var\\.([a-z0-9_]+)\\}$").matcher(passed);
    java.util.regex.Matcher pool =
        java.util.regex.Pattern.compile("^\\$\\{each\\.value\\.([a-z0-9_]+)\\}$").matcher(passed);
    List<JsonNode> values = new ArrayList<>();
    String source;
    if (root.matches() && attribute.isEmpty()) {
      source = "var." + root.group(1);
      values.add(r.tfvars().path(root.group(1)));
      values.add(
          r.parsed()
              .get("variables.tf")
              .path("variable")
              .path(root.group(1))
              .path(0)
              .path("default"));
    } else if (pool.matches() && !attribute.isEmpty()) {
      // A pool attribute: every pool's value, and the default of var.pools' object type.
      source = "var.pools[*]." + pool.group(1) + "." + attribute;
      r.tfvars().path("pools").forEach(p -> values.add(p.path(pool.group(1)).path(attribute)));
      java.util.regex.Matcher d =
          java.util.regex.Pattern.compile(
                  "\\b" + attribute + " += optional\\((bool|string), (true|false|\"[^\"]*\")\\)")
              .matcher(r.tf().get("variables.tf"));
      try {
        values.add(
            d.find()
                ? new com.fasterxml.jackson.databind.ObjectMapper().readTree(d.group(2))
                : com.fasterxml.jackson.databind.node.MissingNode.getInstance());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    } else {
      problems.add(what + " comes from " + passed + ", want one root variable or pool attribute");
      return;
    }
    for (JsonNode v : values) {
      boolean ok =
          want instanceof Boolean b
              ? v.isBoolean() && v.asBoolean() == b
              : v.isTextual() && v.asText().equals(want);
      if (!ok) {
        problems.add(what + " = " + source + " is " + v + ", want " + want);
      }
    }
  }

  /**
   * The nodes' user data is gpugen's only: each pool's is the EKS join script (eks_enabled), its
   * rendered pull-mode script (user_data_file), both, or none, and tfvars name a pull-mode script
   * exactly for the pools of a pull-mode render, each a file the render has.
   */
  private static void userData(
      Rendered r, Map<String, JsonNode> parsed, boolean pull, boolean eks, List<String> problems) {
    String local = "";
    for (JsonNode locals : parsed.get("pools.tf").path("locals")) {
      if (locals.has("pool_user_data")) {
        local = locals.path("pool_user_data").asText();
      }
    }
    java.util.TreeSet<String> sources = new java.util.TreeSet<>();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "(var\\.[a-z_]+|local\\.[a-z_]+(\\[name\\])?|p\\.[a-z_]+|[a-z0-9]+\\()")
            .matcher(local);
    while (m.find()) {
      sources.add(m.group(1));
    }
    assertEquals(
        new java.util.TreeSet<>(
            List.of(
                "base64encode(",
                "file(",
                "filebase64(",
                "join(",
                "local.eks_join[name]",
                "local.user_data_boundary",
                "p.user_data_file",
                "var.eks_enabled",
                "var.pools")),
        sources,
        "each pool's user data is made of the join script and the pull-mode script only");
    assertEquals(eks, r.tfvars().path("eks_enabled").asBoolean(false), "eks_enabled");
    r.tfvars()
        .path("pools")
        .properties()
        .forEach(
            e -> {
              JsonNode file = e.getValue().path("user_data_file");
              String want = "user-data-" + e.getKey().replace('-', '_') + ".sh";
              if (pull
                  ? !(file.asText().equals(want) && r.terraform().containsKey(want))
                  : !file.isMissingNode() && !file.isNull()) {
                problems.add("pool " + e.getKey() + " has user_data_file " + file);
              }
            });
  }

  /**
   * kubeadm on AWS: the control-plane instances have no launch template and no pool settings, so
   * their secure values are literals: IMDSv2 with one hop, an encrypted root volume, no public
   * address, no user data, the node role.
   */
  private static void controlPlane(List<String> problems, String at, JsonNode body) {
    expectIn(
        problems,
        at + ".metadata_options.http_tokens",
        body,
        "required",
        "metadata_options",
        "http_tokens");
    expectIn(
        problems,
        at + ".metadata_options.http_endpoint",
        body,
        "enabled",
        "metadata_options",
        "http_endpoint");
    if (body.path("metadata_options").path(0).path("http_put_response_hop_limit").asInt() != 1) {
      problems.add(at + ".metadata_options.http_put_response_hop_limit is not 1");
    }
    expectIn(
        problems,
        at + ".root_block_device.encrypted",
        body,
        true,
        "root_block_device",
        "encrypted");
    if (!body.path("associate_public_ip_address")
        .equals(com.fasterxml.jackson.databind.node.BooleanNode.FALSE)) {
      problems.add(at + " may get a public address");
    }
    if (body.has("user_data") || body.has("user_data_base64")) {
      problems.add(at + " sets user data");
    }
    if (!body.path("iam_instance_profile").isTextual()) {
      problems.add(at + " has no iam_instance_profile");
    }
    if (!body.path("lifecycle").path(0).path("ignore_changes").toString().contains("ami")) {
      problems.add(at + " would be replaced by every new Ubuntu AMI");
    }
  }

  private static void expectIn(
      List<String> problems, String what, JsonNode body, Object want, String block, String key) {
    JsonNode v = body.path(block).path(0).path(key);
    boolean ok =
        want instanceof Boolean b
            ? v.isBoolean() && v.asBoolean() == b
            : v.isTextual() && v.asText().equals(want);
    if (!ok) {
      problems.add(what + " is " + v + ", want " + want);
    }
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
