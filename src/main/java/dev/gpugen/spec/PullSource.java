package dev.gpugen.spec;

/**
 * Where pulling nodes fetch the rendered bundle ({@code ansible.pull.source}): {@code s3} from the
 * checkpoint bucket (https://docs.aws.amazon.com/cli/latest/reference/s3/cp.html), {@code git} from
 * a repository at a ref, as ansible-pull's {@code --url}/{@code --checkout} do
 * (https://docs.ansible.com/ansible/latest/cli/ansible-pull.html).
 */
public enum PullSource implements Keyword {
  S3("s3"),
  GIT("git");

  private final String spelling;

  PullSource(String spelling) {
    this.spelling = spelling;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** The spelling, so a message or a string built from the value reads as the spec does. */
  @Override
  public String toString() {
    return spelling;
  }
}
