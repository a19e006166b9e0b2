package dev.gpugen.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The EFA facts of gpugen's table against AWS's own EFA device plugin chart: the instance lists of
 * its values.yaml, copied with the chart version and commit into src/test/resources/upstream/ (one
 * file per chart version). The chart play 03 installs must schedule on every EFA type the table
 * knows, the table's list must be the chart's, and the table's EFA set of GPU types must equal the
 * chart's.
 */
class EfaDevicePluginChartTest {
  private static final CompatTable TABLE = CompatTable.load();

  /** The supportedInstanceLabels values of the chart at {@code version}, as copied upstream. */
  private static List<String> upstream(String version) throws IOException {
    Path file =
        Golden.repo()
            .resolve(
                "src/test/resources/upstream/eks-charts-aws-efa-k8s-device-plugin-"
                    + version
                    + ".txt");
    assertTrue(Files.exists(file), "no upstream copy of chart " + version + ": " + file);
    String text = Files.readString(file);
    assertTrue(text.contains("# Chart.yaml: version: " + version + "\n"), file.toString());
    List<String> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        out.add(line.strip());
      }
    }
    return out;
  }

  /** The chart version the rendered gpu_operator role pins (its defaults template). */
  private static String pinnedByTheRole() throws IOException {
    String defaults =
        Files.readString(
            Golden.repo()
                .resolve(
                    "src/test/resources/golden/aws-h100-reference/expected/ansible/roles/"
                        + "gpu_operator/defaults/main.yml"));
    Matcher m =
        Pattern.compile("(?m)^gpu_operator_efa_chart_version: \"?([^\"\\s]+)\"?$")
            .matcher(defaults);
    assertTrue(m.find(), defaults);
    return m.group(1);
  }

  @Test
  void theTablesChartListIsTheChartsOwn() throws IOException {
    EfaDevicePluginChart chart = TABLE.efaDevicePlugin();
    assertEquals(upstream(chart.chartVersion()), chart.instanceTypes());
  }

  @Test
  void theChartTheRoleInstallsSchedulesOnEveryEfaTypeOfTheTable() throws IOException {
    String pinned = pinnedByTheRole();
    assertEquals(TABLE.efaDevicePlugin().chartVersion(), pinned, "the role's pin is the table's");
    TreeSet<String> unscheduled = new TreeSet<>();
    List<String> chart = upstream(pinned);
    for (AwsInstanceType t : TABLE.awsInstances()) {
      if (t.efa() && !chart.contains(t.name())) {
        unscheduled.add(t.name());
      }
    }
    assertEquals(
        new TreeSet<>(),
        unscheduled,
        "EFA types of the table on which chart " + pinned + " never runs the device plugin");
  }

  /**
   * Every GPU instance type (P and G families) the chart lists has EFA in the table, as a row or
   * among the other EFA types; every row with EFA is in the chart, and no row without EFA is.
   */
  @Test
  void theTablesEfaGpuTypesAreTheChartsGpuTypes() throws IOException {
    List<String> chart = upstream(TABLE.efaDevicePlugin().chartVersion());
    TreeSet<String> missing = new TreeSet<>();
    for (String type : chart) {
      if (type.matches("(p|g|gr)[0-9][a-z0-9-]*\\..*") && !TABLE.efaSupported(type)) {
        missing.add(type);
      }
    }
    assertEquals(new TreeSet<>(), missing, "GPU types the chart gives EFA, the table does not");
    TreeSet<String> disagree = new TreeSet<>();
    for (AwsInstanceType t : TABLE.awsInstances()) {
      if (t.efa() != chart.contains(t.name())) {
        disagree.add(t.name() + " (table efa " + t.efa() + ")");
      }
    }
    assertEquals(new TreeSet<>(), disagree, "rows whose EFA the chart contradicts");
  }

  /** The old pin is why the pin moved: its list lacks two EFA types AWS documents. */
  @Test
  void chart0520ListsNeitherP54xlargeNorP6b300() throws IOException {
    List<String> old = upstream("v0.5.20");
    assertTrue(!old.contains("p5.4xlarge") && !old.contains("p6-b300.48xlarge"), old::toString);
    assertTrue(TABLE.efaSupported("p5.4xlarge") && TABLE.efaSupported("p6-b300.48xlarge"));
  }
}
