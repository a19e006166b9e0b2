package dev.gpugen.spec;

/**
 * How the playbooks reach the nodes ({@code ansible.mode}): {@code push} from a controller running
 * ansible-playbook, {@code pull} by each node applying the same playbooks to itself at boot, as
 * ansible-pull does (https://docs.ansible.com/ansible/latest/cli/ansible-pull.html).
 */
public enum AnsibleMode implements Keyword {
  PUSH("push"),
  PULL("pull");

  private final String spelling;

  AnsibleMode(String spelling) {
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
