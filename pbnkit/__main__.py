from pbnkit.cli import main

main(prog_name="pbnkit")
