package dev.gpugen.render;

import dev.gpugen.Golden;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * variables.tf and gke-variables.tf are static files (the same for every spec), written from the
 * one list of variables in {@link TerraformVariables}; this keeps them in step. After changing a
 * variable, rewrite them with {@code -Dgpugen.updateGolden=true}.
 */
class TerraformVariablesFileTest {
  @Test
  void variablesTfIsTheAwsList() {
    Golden.assertFile(Path.of("templates/terraform/variables.tf"), TerraformVariables.awsFile());
  }

  @Test
  void gkeVariablesTfIsTheGkeList() {
    Golden.assertFile(
        Path.of("templates/terraform/gke-variables.tf"), TerraformVariables.gkeFile());
  }
}
