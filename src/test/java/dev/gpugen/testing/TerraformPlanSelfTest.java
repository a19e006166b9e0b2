package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/** The plan harness's own decisions: the version pin, and a missing mirror. */
class TerraformPlanSelfTest {
  private static final String VERSIONS =
      """
      terraform {
        required_providers {
          aws = {
            source  = "hashicorp/aws"
            version = ">= 5.100, < 6.0"
          }
        }
      }
      """;

  @Test
  void aProviderInsideThePinPasses() {
    assertEquals(">= 5.100, < 6.0", TerraformPlan.checkAwsPin(VERSIONS, "5.100.0"));
  }

  /** The harness no longer relaxes the pin: a provider outside it fails, naming both. */
  @Test
  void aProviderOutsideThePinFails() {
    for (String installed : List.of("5.99.1", "6.0.0", "6.25.0")) {
      AssertionFailedError e =
          assertThrows(
              AssertionFailedError.class, () -> TerraformPlan.checkAwsPin(VERSIONS, installed));
      assertTrue(
          e.getMessage().contains(installed + " is outside the render's pin \">= 5.100, < 6.0\""),
          e.getMessage());
    }
  }

  @Test
  void constraintsReadAsTerraformReadsThem() {
    assertTrue(TerraformPlan.satisfies("6.31.0", "~> 6.25"));
    assertFalse(TerraformPlan.satisfies("5.100.0", "~> 6.25"));
    assertFalse(TerraformPlan.satisfies("7.0.0", "~> 6.25"));
    assertTrue(TerraformPlan.satisfies("6.25.9", "~> 6.25.1"));
    assertFalse(TerraformPlan.satisfies("6.26.0", "~> 6.25.1"));
    assertTrue(TerraformPlan.satisfies("5.100.0", "5.100.0"));
    assertFalse(TerraformPlan.satisfies("5.100.0", "!= 5.100.0"));
  }

  /** The pin the render ships is the one the mirrored provider satisfies. */
  @Test
  void theRenderedPinIsTheOneTheTestsProve() throws Exception {
    String shipped = Files.readString(Path.of("templates/terraform/versions.tf"));
    assertEquals(">= 5.100, < 6.0", TerraformPlan.checkAwsPin(shipped, "5.100.0"));
  }

  @Test
  @TerraformTest
  void aMirrorWithoutTheProviderFailsNamingWhatToInstall(@TempDir Path empty) throws Exception {
    Files.createDirectories(empty.resolve("registry.terraform.io/hashicorp/aws/5.100.0"));
    AssertionFailedError e =
        assertThrows(AssertionFailedError.class, () -> TerraformPlan.find(empty));
    assertTrue(
        e.getMessage().contains("no hashicorp/aws provider binary in the filesystem mirror")
            && e.getMessage().contains("scripts/install-test-deps"),
        e.getMessage());
  }

  @Test
  @TerraformTest
  void theInstalledToolsAreFound() throws Exception {
    TerraformPlan.Tools t = TerraformPlan.tools();
    assertTrue(TerraformPlan.compare(t.terraformVersion(), "1.7.0") >= 0, t.toString());
    assertTrue(
        Files.isDirectory(t.mirror().resolve("registry.terraform.io/hashicorp/aws")), t.toString());
  }

  @Test
  void hclStringsStayLiteral() {
    assertEquals("\"a\\\"b $${x} %%{y}\\n\"", TerraformPlan.hclString("a\"b ${x} %{y}\n"));
  }
}
