package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
            version = "~> 6.25"
          }
        }
      }
      """;

  @Test
  void anOlderProviderRelaxesThePinInTheCopyAndSaysSo() {
    TerraformPlan.Relaxed r = TerraformPlan.relaxAwsPin(VERSIONS, "5.100.0");
    assertTrue(r.text().contains("version = \"5.100.0\""), r.text());
    assertEquals(
        "hashicorp/aws pin \"~> 6.25\" relaxed to \"5.100.0\" in the temporary copy: the"
            + " installed provider is older than the pin",
        r.note());
  }

  @Test
  void aProviderInsideThePinKeepsIt() {
    TerraformPlan.Relaxed r = TerraformPlan.relaxAwsPin(VERSIONS, "6.31.0");
    assertEquals(VERSIONS, r.text());
    assertEquals("", r.note());
  }

  @Test
  void aProviderNewerThanThePinFails() {
    AssertionFailedError e =
        assertThrows(
            AssertionFailedError.class, () -> TerraformPlan.relaxAwsPin(VERSIONS, "7.0.1"));
    assertTrue(e.getMessage().contains("newer than the render's pin ~> 6.25"), e.getMessage());
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
