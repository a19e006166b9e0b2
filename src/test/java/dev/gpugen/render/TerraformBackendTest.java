package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TerraformTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * terraform.backend.s3 renders backend.tf: the spec's bucket, key and region (default:
 * cloud.region), encryption and S3-native locking (use_lockfile, which needs Terraform 1.10), read
 * back through HashiCorp's parser and accepted by Terraform's own S3 backend.
 */
@TerraformTest
class TerraformBackendTest {
  @TempDir Path scratch;

  @Test
  void theBackendHoldsTheSpecsValuesWithLockingAndEncryption() throws Exception {
    JsonNode s3 = backend(Rendered.of(Rendered.GOLDEN.resolve("aws-airgapped/spec.yaml")));
    assertEquals("vault-tfstate-example", s3.path("bucket").asText());
    assertEquals("clusters/vault/terraform.tfstate", s3.path("key").asText());
    assertEquals("eu-west-1", s3.path("region").asText(), "the cluster's region by default");
    assertTrue(s3.path("use_lockfile").asBoolean(), s3.toString());
    assertTrue(s3.path("encrypt").asBoolean(), s3.toString());

    JsonNode other = backend(Rendered.of(Rendered.GOLDEN.resolve("aws-bastion/spec.yaml")));
    assertEquals("us-east-1", other.path("region").asText(), "the region the spec names");
  }

  @Test
  void withoutABackendThereIsNoBackendFile() {
    // The counted-layout kubeadm golden keeps local state (the prod examples carry a backend).
    Rendered r = Rendered.of(Rendered.GOLDEN.resolve("aws-kubeadm/spec.yaml"));
    assertFalse(r.terraform().containsKey("backend.tf"), r.terraform().keySet().toString());
    assertFalse(r.tf().values().stream().anyMatch(t -> t.contains("backend \"")));
  }

  /**
   * Terraform 1.11's S3 backend reads the block: init gets as far as looking for AWS credentials
   * (there are none here, and no network), so every argument was accepted. A misspelt argument
   * fails earlier, with "Unsupported argument".
   */
  @Test
  void terraformsS3BackendAcceptsTheBlock() throws Exception {
    Rendered r = Rendered.of(Rendered.GOLDEN.resolve("aws-airgapped/spec.yaml"));
    RealTools.Result ok = init(r.terraform().get("backend.tf"));
    assertTrue(
        ok.output().contains("Initializing the backend")
            && ok.output().contains("No valid credential sources found")
            && !ok.output().contains("Unsupported argument"),
        ok.output());
    RealTools.Result bad =
        init(r.terraform().get("backend.tf").replace("use_lockfile", "use_lockfilez"));
    assertTrue(bad.output().contains("Unsupported argument"), bad.output());
  }

  private RealTools.Result init(String backendTf) throws Exception {
    Path dir = Files.createTempDirectory(scratch, "backend");
    Files.writeString(dir.resolve("backend.tf"), backendTf, StandardCharsets.UTF_8);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("CHECKPOINT_DISABLE", "1");
    env.put("TF_IN_AUTOMATION", "1");
    env.put("TF_INPUT", "0");
    env.put("TF_CLI_CONFIG_FILE", "/dev/null");
    env.put("TF_DATA_DIR", dir.resolve(".terraform").toString());
    // No credentials from anywhere: the backend stops before any network call.
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    env.put("AWS_CONFIG_FILE", "/dev/null");
    env.put("AWS_SHARED_CREDENTIALS_FILE", "/dev/null");
    for (String v :
        new String[] {
          "AWS_ACCESS_KEY_ID",
          "AWS_SECRET_ACCESS_KEY",
          "AWS_SESSION_TOKEN",
          "AWS_PROFILE",
          "AWS_WEB_IDENTITY_TOKEN_FILE",
          "AWS_CONTAINER_CREDENTIALS_FULL_URI",
          "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"
        }) {
      env.put(v, "");
    }
    return RealTools.run(
        dir, Duration.ofMinutes(2), env, "terraform", "init", "-input=false", "-no-color");
  }

  private static JsonNode backend(Rendered r) {
    JsonNode body = r.parsed().get("backend.tf");
    assertTrue(body != null, "backend.tf rendered: " + r.terraform().keySet());
    JsonNode terraform = body.path("terraform").path(0);
    assertEquals(">= 1.10.0", terraform.path("required_version").asText());
    return terraform.path("backend").path("s3").path(0);
  }
}
