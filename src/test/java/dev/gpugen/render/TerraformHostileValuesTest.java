package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Gpugen;
import dev.gpugen.failure.InternalFailure;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import dev.gpugen.testing.RealToolsTest;
import dev.gpugen.testing.Records;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Hostile values (quotes, backslashes, {@code ${...}}, {@code %{...}}, newlines, unicode) survive
 * into Terraform as the same values, and never into HCL source.
 *
 * <p>Three layers: the reader rejects them in every spec field that reaches Terraform; a model
 * built past the reader carries them into terraform.tfvars.json unchanged (Terraform reads tfvars
 * values literally: a {@code ${path.module}} there stays text, checked with terraform console 1.11)
 * while the .tf files stay byte-identical; and the HCL escaper the templates use for table data
 * round-trips them through HashiCorp's parser.
 */
class TerraformHostileValuesTest {
  static final List<String> HOSTILE =
      List.of(
          "quote\" and 'single'",
          "back\\slash\\\\ and \\\" and \\n (not a newline)",
          "${path.module} ${var.region} ${file(\"/etc/passwd\")}",
          "%{ if true }yes%{ endif } %{for x in [1]}${x}%{endfor}",
          "$${already escaped} %%{already escaped} $$${three} $",
          "line one\nline two\r\n\ttabbed",
          "ünïcödé ☃ 𝄞 \u2028 \u0085 \u00a0 ﻿BOM",
          "} \" ] ) # // /* */ <<EOF\nEOF\n");

  /** Every string of a spec that reaches terraform.tfvars.json, as a path and a YAML snippet. */
  static final Map<String, String> FIELDS = new LinkedHashMap<>();

  static {
    FIELDS.put("metadata.name", "metadata: {name: @}");
    FIELDS.put("metadata.environment", "metadata: {name: ok, environment: @}");
    FIELDS.put("cloud.region", "cloud: {provider: aws, region: @}");
    FIELDS.put(
        "cloud.availabilityZone", "cloud: {provider: aws, region: us-east-1, availabilityZone: @}");
    FIELDS.put("cloud.sshKeyName", "cloud: {provider: aws, region: us-east-1, sshKeyName: @}");
    FIELDS.put("cloud.image", "cloud: {provider: aws, region: us-east-1, image: @}");
    FIELDS.put("network.vpcCidr", "network: {vpcCidr: @}");
    FIELDS.put("network.subnetCidr", "network: {vpcCidr: 10.0.0.0/16, subnetCidr: @}");
    FIELDS.put("network.vpcId", "network: {vpcId: @, subnetId: subnet-0123456789abcdef0}");
    FIELDS.put("network.subnetId", "network: {vpcId: vpc-0123456789abcdef0, subnetId: @}");
    FIELDS.put("network.sshIngressCidrs[0]", "network: {sshIngressCidrs: [@]}");
    FIELDS.put("network.placement", "network: {placement: @}");
    FIELDS.put("network.fabric", "network: {fabric: @}");
    FIELDS.put("storage.checkpointBucket", "storage: {checkpointBucket: @}");
    FIELDS.put(
        "storage.lustre.deploymentType",
        "storage: {lustre: {capacityGiB: 1200, deploymentType: @}}");
    FIELDS.put(
        "storage.lustre.mountPoint", "storage: {lustre: {capacityGiB: 1200, mountPoint: @}}");
    FIELDS.put("pools[0].name", "pools: [{name: @, instanceType: p5.48xlarge}]");
    FIELDS.put("pools[0].instanceType", "pools: [{name: gpu, instanceType: @}]");
    FIELDS.put(
        "pools[0].rootVolume.type",
        "pools: [{name: gpu, instanceType: p5.48xlarge, rootVolume: {type: @}}]");
    FIELDS.put("software.driver", "software: {driver: @, cuda: \"12.8\"}");
    FIELDS.put("software.cuda", "software: {driver: \"580.95.05\", cuda: @}");
  }

  private static final Map<String, String> BASE = new LinkedHashMap<>();

  static {
    BASE.put("metadata", "metadata: {name: ok}");
    BASE.put("cloud", "cloud: {provider: aws, region: us-east-1}");
    BASE.put("network", "network: {vpcCidr: 10.0.0.0/16}");
    BASE.put("storage", "storage: {}");
    BASE.put("pools", "pools: [{name: gpu, instanceType: p5.48xlarge}]");
    BASE.put("software", "software: {driver: \"580.95.05\", cuda: \"12.8\"}");
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  @TestFactory
  Stream<DynamicTest> theReaderRejectsHostileValuesWhereverTheyWouldReachTerraform() {
    List<DynamicTest> tests = new ArrayList<>();
    FIELDS.forEach(
        (path, snippet) ->
            tests.add(
                DynamicTest.dynamicTest(
                    path,
                    () -> {
                      for (String h : HOSTILE) {
                        Map<String, String> doc = new LinkedHashMap<>(BASE);
                        doc.put(
                            path.replaceAll("[.\\[].*", ""),
                            snippet.replace("@", JSON.writeValueAsString(h)));
                        String yaml =
                            "apiVersion: gpugen/v1\nkind: GpuCluster\n"
                                + String.join("\n", doc.values())
                                + "\n";
                        Gpugen.Checked c =
                            Rendered.gpugen()
                                .check(
                                    "hostile.yaml",
                                    yaml.getBytes(StandardCharsets.UTF_8),
                                    Optional.empty(),
                                    Set.of());
                        List<Diagnostic> errors =
                            c.diagnostics().stream()
                                .filter(d -> d.severity() == Severity.ERROR)
                                .toList();
                        assertTrue(
                            errors.stream().anyMatch(d -> d.path().toString().equals(path)),
                            path
                                + " = "
                                + JSON.writeValueAsString(h)
                                + " must be an error there, got "
                                + errors);
                      }
                    })));
    return tests.stream();
  }

  @RealToolsTest
  @Test
  void pastTheReaderTheyReachTfvarsUnchangedAndTheTfFilesNotAtAll() throws IOException {
    String core = String.join(" | ", HOSTILE);
    Map<String, String> want = new TreeMap<>();
    for (String key :
        List.of(
            "cluster_name",
            "environment",
            "region",
            "availability_zone",
            "ssh_key_name",
            "image",
            "vpc_cidr",
            "subnet_cidr",
            "vpc_id",
            "subnet_id",
            "checkpoint_bucket",
            "lustre_deployment_type",
            "lustre_mount_point",
            "gpu_instance_type",
            "gpu_root_volume_type",
            "gpu_driver_version",
            "gpu_cuda_version",
            "cidr")) {
      want.put(key, key + ": " + core);
    }
    // Past the reader: a valid spec with every string that reaches Terraform made hostile (the
    // spec words bound to enums, like placement and fabric, hold only their spellings).
    ClusterSpec base =
        Rendered.of(
                "base",
                ("apiVersion: gpugen/v1\nkind: GpuCluster\n"
                        + String.join("\n", BASE.values())
                            .replace(
                                "storage: {}",
                                "storage: {lustre: {capacityGiB: 1200, perUnitStorageThroughput:"
                                    + " 125}, checkpointBucket: ckpt}")
                        + "\n")
                    .getBytes(StandardCharsets.UTF_8))
            .spec();
    ClusterSpec.Software software =
        Records.with(
            base.software(),
            "os",
            "os: " + core,
            "driver",
            want.get("gpu_driver_version"),
            "cuda",
            want.get("gpu_cuda_version"),
            "containerToolkit",
            "ctk: " + core,
            // Explicit, so that the plan need not read the hostile driver as a version.
            "kernelModules",
            dev.gpugen.spec.KernelModules.OPEN,
            "gpuOperator.version",
            "op: " + core);
    ClusterSpec hostile =
        Records.with(
            base,
            "metadata.name",
            want.get("cluster_name"),
            "metadata.environment",
            want.get("environment"),
            "cloud.region",
            want.get("region"),
            "cloud.availabilityZone",
            want.get("availability_zone"),
            "cloud.sshKeyName",
            want.get("ssh_key_name"),
            "cloud.image",
            want.get("image"),
            "network.vpcCidr",
            want.get("vpc_cidr"),
            "network.subnetCidr",
            want.get("subnet_cidr"),
            "network.vpcId",
            want.get("vpc_id"),
            "network.subnetId",
            want.get("subnet_id"),
            "network.sshIngressCidrs",
            List.of(want.get("cidr")),
            "storage.lustre.deploymentType",
            want.get("lustre_deployment_type"),
            "storage.lustre.mountPoint",
            want.get("lustre_mount_point"),
            "storage.checkpointBucket",
            want.get("checkpoint_bucket"),
            "pools[0].instanceType",
            want.get("gpu_instance_type"),
            "pools[0].market",
            dev.gpugen.spec.Market.SPOT,
            "pools[0].rootVolume.type",
            want.get("gpu_root_volume_type"),
            "pools[0].software",
            software,
            "software",
            software);
    Rendered r = Rendered.of("hostile", hostile);

    JsonNode tfvars = r.tfvars();
    // The pool's values are attributes of its entry of var.pools; the driver and CUDA versions
    // reach no Terraform file at all (the linter, not Terraform, judges them).
    Map<String, String> pointer =
        Map.of(
            "gpu_instance_type", "/pools/gpu/instance_type",
            "gpu_root_volume_type", "/pools/gpu/root_volume/type");
    want.forEach(
        (key, value) -> {
          if (key.equals("gpu_driver_version") || key.equals("gpu_cuda_version")) {
            for (String text : r.terraform().values()) {
              assertFalse(text.contains(value), key + " reached Terraform");
            }
          } else if (!key.equals("cidr")) {
            assertEquals(value, tfvars.at(pointer.getOrDefault(key, "/" + key)).asText(null), key);
          }
        });
    assertEquals(want.get("cidr"), tfvars.path("ssh_ingress_cidrs").path(0).asText(null));

    Rendered benign =
        Rendered.of(
            "benign",
            ("apiVersion: gpugen/v1\nkind: GpuCluster\n" + String.join("\n", BASE.values()) + "\n")
                .getBytes(StandardCharsets.UTF_8));
    assertEquals(benign.tf(), r.tf(), "the .tf files hold no spec value but the pool names");
    for (String text : r.tf().values()) {
      for (String h : HOSTILE) {
        assertFalse(text.contains(h), "a hostile value reached a .tf file");
      }
    }
    assertEquals(benign.tf().keySet(), r.parsed().keySet(), "and they still parse");
  }

  @Test
  void aPoolNameThatIsNoIdentifierFailsTheRenderInsteadOfReachingHcl() {
    for (String name : List.of("gpu\"} resource", "gpu ${x}", "gpu\nx", "../gpu")) {
      ClusterSpec spec =
          Rendered.of(
                  "benign",
                  ("apiVersion: gpugen/v1\nkind: GpuCluster\n"
                          + String.join("\n", BASE.values())
                          + "\n")
                      .getBytes(StandardCharsets.UTF_8))
              .spec();
      ClusterSpec renamed = Records.with(spec, "pools[0].name", name);
      assertThrows(
          InternalFailure.class,
          () ->
              Rendered.gpugen()
                  .render(
                      dev.gpugen.TestSpecs.plan(renamed),
                      Templates.load(Optional.empty()),
                      "spec.yaml"),
          name);
    }
  }

  @RealToolsTest
  @Test
  void theHclEscaperRoundTripsThroughHashiCorpsParser() throws IOException {
    StringBuilder tf = new StringBuilder("locals {\n");
    for (int i = 0; i < HOSTILE.size(); i++) {
      tf.append("  v").append(i).append(" = ").append(Escape.hcl(HOSTILE.get(i))).append('\n');
    }
    tf.append("}\n");
    JsonNode locals =
        Hcl2Json.parse(Map.of("e.tf", tf.toString())).get("e.tf").path("locals").path(0);
    for (int i = 0; i < HOSTILE.size(); i++) {
      assertEquals(HOSTILE.get(i), templateLiteral(locals.path("v" + i).asText()), "value " + i);
    }
  }

  /**
   * hcl2json prints a literal string as Terraform's JSON syntax would hold it: backslash escapes
   * decoded, but {@code $${} and {@code %%{} kept. Terraform reads those, left to right, as the
   * literal {@code ${} and {@code %{} (checked with terraform console 1.11).
   */
  static String templateLiteral(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); ) {
      if (s.startsWith("$${", i) || s.startsWith("%%{", i)) {
        b.append(s.charAt(i)).append('{');
        i += 3;
      } else {
        if ((s.startsWith("${", i) || s.startsWith("%{", i))) {
          throw new AssertionError("an interpolation survived: " + s);
        }
        b.append(s.charAt(i));
        i++;
      }
    }
    return b.toString();
  }
}
