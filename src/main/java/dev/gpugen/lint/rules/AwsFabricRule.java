package dev.gpugen.lint.rules;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** EC2 offers EFA and plain TCP between instances; InfiniBand and RoCE are not on the menu. */
public final class AwsFabricRule extends Rule {
  public AwsFabricRule() {
    super(
        "aws-fabric-unsupported",
        Severity.ERROR,
        "network.fabric is infiniband or roce on AWS, which has neither",
        "On AWS the nodes talk over EFA (Elastic Fabric Adapter, on EFA-capable instance"
            + " types) or TCP over ENA; EC2 has no InfiniBand or RoCE fabric to attach. Use"
            + " network.fabric: efa or tcp, or leave it out for the default (efa when every pool's"
            + " instance type supports EFA, else tcp)."
            + " Source: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html");
  }

  @Override
  public void check(ClusterSpec spec, Findings findings) {
    String fabric = spec.network().fabric();
    if (spec.cloud().provider().equals("aws") && !fabric.equals("efa") && !fabric.equals("tcp")) {
      findings.report(
          SpecPath.of("network", "fabric"),
          "network.fabric " + fabric + " does not exist on AWS",
          "use efa (EFA-capable instance types) or tcp");
    }
  }
}
