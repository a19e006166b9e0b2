package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.TestSpecs;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.NodeSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Terraform apply of gpugen up, with and without --allow-replace. */
class DeployTest {
  private static List<String> applies(List<Deploy.Step> steps) {
    return steps.stream()
        .filter(s -> s instanceof Deploy.Run r && r.tool().equals("terraform"))
        .map(s -> String.join(" ", ((Deploy.Run) s).args()))
        .filter(a -> a.contains(" apply"))
        .toList();
  }

  @Test
  void allowReplaceAppliesWithAReplaceOfEveryPoolsRecordedSettingsAndNothingElse()
      throws Exception {
    ClusterPlan plan =
        TestSpecs.plan(
            TestSpecs.parse(
                Files.readString(
                    Path.of("src/test/resources/golden/aws-h100-reference/spec.yaml"))));
    Path folder = Path.of("out");
    String tf = "-chdir=" + folder.resolve("terraform");
    assertEquals(
        List.of(tf + " apply -input=false -auto-approve"),
        applies(Deploy.up(plan, folder, true, false)));
    assertEquals(
        List.of(
            tf
                + " apply -input=false -auto-approve"
                + " -replace=terraform_data.recorded_node_settings[\"h100\"]"),
        applies(Deploy.up(plan, folder, true, false, NodeSettings.recordAddresses(plan))));
  }
}
