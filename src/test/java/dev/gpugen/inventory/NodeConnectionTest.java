package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.failure.Failure;
import dev.gpugen.inventory.Ec2StandIn.Instance;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The connection variables gpugen-inventory gives every host: community.aws.aws_ssm with the
 * instance id, region and the cluster's transfer bucket (the rendered prefix, the instance's
 * account and region; never a tag), or ssh through a ProxyJump.
 */
class NodeConnectionTest {
  private static final String PREFIX = "demo-prod-ssm-";
  private static final String BUCKET = PREFIX + Ec2StandIn.OWNER_ID + "-us-east-1";

  private static InventoryConfig config(String... env) throws Failure {
    Map<String, String> vars = new HashMap<>(Map.of("GPUGEN_CACHE_DIR", "/nonexistent"));
    for (int i = 0; i + 1 < env.length; i += 2) {
      vars.put(env[i], env[i + 1]);
    }
    return new InventoryConfigReader(vars).read(Optional.of(StandIns.SMALL_FLEET_CONFIG));
  }

  private static Instance node(int n) {
    return Instance.of(
        String.format("i-0b%015d", n),
        "p5.48xlarge",
        "us-east-1a",
        Fleet.tags("demo", "prod", "h100-infer", "node-" + n));
  }

  private static InventoryBuilder.Result build(InventoryConfig config, Instance... instances) {
    return InventoryBuilder.build(
        config, java.util.Arrays.stream(instances).map(StandIns::facts).toList());
  }

  @Test
  void ssmGivesEveryHostTheAwsSsmConnectionWithItsInstanceIdRegionAndBucket() throws Exception {
    InventoryBuilder.Result r =
        build(
            config("GPUGEN_CONNECTION", "ssm", "GPUGEN_SSM_BUCKET_PREFIX", PREFIX),
            node(1),
            node(2));
    assertEquals(List.of(), r.warnings());
    for (String host : List.of("node-1", "node-2")) {
      Map<String, String> vars = r.inventory().varsOf(host);
      assertEquals("community.aws.aws_ssm", vars.get("ansible_connection"), host);
      assertEquals(vars.get("gpugen_instance_id"), vars.get("ansible_aws_ssm_instance_id"), host);
      assertTrue(vars.get("ansible_aws_ssm_instance_id").startsWith("i-0b"), host);
      assertEquals("us-east-1", vars.get("ansible_aws_ssm_region"), host);
      assertEquals(BUCKET, vars.get("ansible_aws_ssm_bucket_name"), host);
      assertEquals("virtual", vars.get("ansible_aws_ssm_s3_addressing_style"), host);
      assertFalse(vars.containsKey("ansible_ssh_common_args"), host);
    }
  }

  /**
   * S3 bucket names are global: any account can own demo-prod-ssm-attacker, which starts with the
   * rendered prefix. A node's gpugen:ssm-bucket tag is never read; the bucket is the name ssm.tf
   * gives it, from the settings and the instance's own account and region as EC2 reports them.
   */
  @Test
  void theBucketNeverComesFromATagOnlyFromTheSettingsAccountAndRegion() throws Exception {
    InventoryBuilder.Result r =
        build(
            config("GPUGEN_CONNECTION", "ssm", "GPUGEN_SSM_BUCKET_PREFIX", PREFIX),
            node(1).withTag(GpugenTags.SSM_BUCKET, PREFIX + "attacker"),
            node(2).withTag(GpugenTags.SSM_BUCKET, "attacker-bucket"));
    for (String host : List.of("node-1", "node-2")) {
      assertEquals(BUCKET, r.inventory().varsOf(host).get("ansible_aws_ssm_bucket_name"), host);
    }
    assertEquals(List.of(), r.warnings());
  }

  @Test
  void anInstanceWithoutAnAccountIdGetsNoBucketAndSaysSo() throws Exception {
    HostFacts orphan =
        new HostFacts(
            "i-0b000000000000009",
            "us-east-1",
            "p5.48xlarge",
            Optional.of("us-east-1a"),
            "running",
            Optional.empty(),
            Optional.of("10.0.0.9"),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Fleet.tags("demo", "prod", "h100-infer", "node-9"),
            Optional.empty(),
            Optional.empty(),
            Optional.empty());
    InventoryBuilder.Result r =
        InventoryBuilder.build(
            config("GPUGEN_CONNECTION", "ssm", "GPUGEN_SSM_BUCKET_PREFIX", PREFIX),
            List.of(orphan));
    assertFalse(r.inventory().varsOf("node-9").containsKey("ansible_aws_ssm_bucket_name"));
    assertEquals(1, r.warnings().size(), r.warnings().toString());
    assertTrue(r.warnings().get(0).contains("no account id"), r.warnings().toString());
  }

  @Test
  void sshWithABastionJumpsThroughItForEveryHost() throws Exception {
    InventoryBuilder.Result r =
        build(
            config("GPUGEN_CONNECTION", "ssh", "GPUGEN_PROXY_JUMP", "ec2-user@bastion.example.com"),
            node(1),
            node(2));
    for (String host : List.of("node-1", "node-2")) {
      Map<String, String> vars = r.inventory().varsOf(host);
      assertEquals(
          "-o ProxyJump=ec2-user@bastion.example.com", vars.get("ansible_ssh_common_args"));
      assertFalse(vars.containsKey("ansible_connection"), host);
    }
  }

  @Test
  void sshLogsInAsTheImagesUserOnEveryHost() throws Exception {
    InventoryBuilder.Result r =
        build(config("GPUGEN_CONNECTION", "ssh", "GPUGEN_USER", "ubuntu"), node(1), node(2));
    for (String host : List.of("node-1", "node-2")) {
      assertEquals("ubuntu", r.inventory().varsOf(host).get("ansible_user"), host);
    }
  }

  @Test
  void withoutConnectionSettingsHostsGetNoConnectionVariables() throws Exception {
    Map<String, String> vars = build(config(), node(1)).inventory().varsOf("node-1");
    assertFalse(
        vars.keySet().stream().anyMatch(k -> k.startsWith("ansible_aws_ssm")), vars.toString());
    assertFalse(vars.containsKey("ansible_connection"), vars.toString());
    assertFalse(vars.containsKey("ansible_ssh_common_args"), vars.toString());
    assertFalse(vars.containsKey("ansible_user"), vars.toString());
  }

  @Test
  void badConnectionSettingsAreRefusedWithWhatIsWrong() {
    record Bad(String[] env, String message) {}
    for (Bad bad :
        List.of(
            new Bad(
                new String[] {"GPUGEN_CONNECTION", "telnet"}, "\"connection\" must be ssm or ssh"),
            new Bad(
                new String[] {"GPUGEN_CONNECTION", "ssm"},
                "connection ssm needs \"ssmBucketPrefix\""),
            new Bad(
                new String[] {"GPUGEN_CONNECTION", "ssm", "GPUGEN_SSM_BUCKET_PREFIX", "Bad_Prefix"},
                "connection ssm needs \"ssmBucketPrefix\""),
            new Bad(
                new String[] {
                  "GPUGEN_CONNECTION", "ssm",
                  "GPUGEN_SSM_BUCKET_PREFIX", PREFIX,
                  "GPUGEN_PROXY_JUMP", "ec2-user@bastion.example.com"
                },
                "\"proxyJump\" is for connection ssh"),
            // An option riding along would run a command on the controller.
            new Bad(
                new String[] {"GPUGEN_PROXY_JUMP", "x@h -oProxyCommand=touch /tmp/pwned"},
                "\"proxyJump\" must be user@host"),
            new Bad(
                new String[] {"GPUGEN_PROXY_JUMP", "-oProxyCommand=id"}, "\"proxyJump\" must be"),
            new Bad(
                new String[] {"GPUGEN_SSM_BUCKET_PREFIX", PREFIX},
                "\"ssmBucketPrefix\" is for connection ssm"),
            new Bad(
                new String[] {
                  "GPUGEN_CONNECTION", "ssm",
                  "GPUGEN_SSM_BUCKET_PREFIX", PREFIX,
                  "GPUGEN_USER", "ubuntu"
                },
                "\"user\" is for connection ssh"),
            // Anything but a login name could carry Jinja or an ssh option into ansible_user.
            new Bad(new String[] {"GPUGEN_USER", "{{ lookup('pipe', 'id') }}"}, "must be a login"),
            new Bad(new String[] {"GPUGEN_USER", "root -oProxyCommand=id"}, "must be a login"),
            new Bad(new String[] {"GPUGEN_USER", "Ubuntu"}, "\"user\" must be a login name"))) {
      Failure e = assertThrows(Failure.class, () -> config(bad.env()));
      assertTrue(e.getMessage().contains(bad.message()), e.getMessage());
    }
  }

  @Test
  void theCacheKeyChangesWithTheConnection() throws Exception {
    Map<String, String> env = Map.of();
    assertFalse(
        InventoryCache.key(config(), env)
            .equals(
                InventoryCache.key(
                    config("GPUGEN_CONNECTION", "ssm", "GPUGEN_SSM_BUCKET_PREFIX", PREFIX), env)));
    assertFalse(
        InventoryCache.key(config(), env)
            .equals(InventoryCache.key(config("GPUGEN_PROXY_JUMP", "u@bastion"), env)));
    assertFalse(
        InventoryCache.key(config(), env)
            .equals(InventoryCache.key(config("GPUGEN_USER", "ubuntu"), env)));
  }

  /**
   * The variables are the ones the installed plugins read: every ansible_aws_ssm_* name is an
   * option variable of community.aws.aws_ssm (with "virtual" among the addressing styles), and
   * ansible_ssh_common_args one of ansible.builtin.ssh, as ansible-doc reports them.
   */
  @Test
  @RealToolsTest
  void everyConnectionVariableIsOneTheInstalledPluginReads() throws Exception {
    JsonNode ssm = pluginOptions("community.aws.aws_ssm");
    Set<String> ssmVars = vars(ssm);
    Map<String, String> hostVars =
        build(
                config("GPUGEN_CONNECTION", "ssm", "GPUGEN_SSM_BUCKET_PREFIX", PREFIX),
                node(1).withTag(GpugenTags.SSM_BUCKET, BUCKET))
            .inventory()
            .varsOf("node-1");
    int checked = 0;
    for (String key : hostVars.keySet()) {
      if (key.startsWith("ansible_aws_ssm_")) {
        assertTrue(ssmVars.contains(key), key + " is not read by aws_ssm: " + ssmVars);
        checked++;
      }
    }
    assertEquals(4, checked, hostVars.toString());
    assertTrue(
        ssm.path("s3_addressing_style").path("choices").toString().contains("\"virtual\""),
        ssm.path("s3_addressing_style").toString());
    Set<String> sshVars = vars(pluginOptions("ansible.builtin.ssh"));
    assertTrue(sshVars.contains("ansible_ssh_common_args"), "ssh reads ansible_ssh_common_args");
    assertTrue(sshVars.contains("ansible_user"), "ssh reads ansible_user: " + sshVars);
  }

  private static JsonNode pluginOptions(String plugin) throws Exception {
    RealTools.Result r =
        RealTools.run(
                Path.of("."),
                Duration.ofMinutes(2),
                Map.of(),
                "ansible-doc",
                "-t",
                "connection",
                "--json",
                plugin)
            .assertOk();
    return new ObjectMapper().readTree(r.output()).path(plugin).path("doc").path("options");
  }

  private static Set<String> vars(JsonNode options) {
    Set<String> out = new HashSet<>();
    options.forEach(o -> o.path("vars").forEach(v -> out.add(v.path("name").asText())));
    return out;
  }
}
