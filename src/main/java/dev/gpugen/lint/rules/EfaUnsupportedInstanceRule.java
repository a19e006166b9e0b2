package dev.gpugen.lint.rules;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;
import java.util.Optional;

/**
 * {@code fabric: efa} on AWS asks for one EFA interface per network card of every node; a pool
 * whose instance type has no EFA, or whose network cards gpugen does not know, cannot have them.
 * Caught here, before Terraform, rather than by a failed launch.
 */
public final class EfaUnsupportedInstanceRule extends Rule {
  public EfaUnsupportedInstanceRule() {
    super(
        "efa-unsupported-instance",
        Severity.ERROR,
        "network.fabric is efa but a pool's instance type has no EFA (or gpugen does not know it)",
        "With network.fabric: efa, gpugen gives every node one EFA interface per network card"
            + " (p4d/p4de 4, p5/p5e 32, p5en 16, p6-b200 8, ...), from its compatibility table."
            + " An instance type without EFA, or one the table does not list, cannot get them: EC2"
            + " would refuse the launch. Use an EFA-capable instance type, or network.fabric: tcp for"
            + " pools that do not need EFA (tcp is the default when any pool lacks EFA)."
            + " Sources: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa-acc-inst-types.html,"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html");
  }

  @Override
  public void check(ClusterSpec spec, Findings findings) {
    if (!spec.cloud().provider().equals("aws") || !spec.network().fabric().equals("efa")) {
      return;
    }
    CompatTable table = CompatTable.load();
    List<ClusterSpec.Pool> pools = spec.pools();
    for (int i = 0; i < pools.size(); i++) {
      String type = pools.get(i).instanceType();
      Optional<AwsInstanceType> row = table.awsInstance(type);
      if (row.isPresent() && row.get().efa()) {
        continue;
      }
      findings.report(
          SpecPath.of("pools", i, "instanceType"),
          "network.fabric is efa, but "
              + type
              + (row.isPresent()
                  ? " has no EFA"
                  : " is not in gpugen's table, so its EFA network cards are unknown"),
          "use an EFA instance type (" + efaExamples(table) + ", ...) or network.fabric: tcp");
    }
  }

  private static String efaExamples(CompatTable table) {
    return String.join(
        ", ",
        table.awsInstances().stream()
            .filter(AwsInstanceType::efa)
            .map(AwsInstanceType::name)
            .filter(name -> name.startsWith("p"))
            .sorted()
            .limit(3)
            .toList());
  }
}
