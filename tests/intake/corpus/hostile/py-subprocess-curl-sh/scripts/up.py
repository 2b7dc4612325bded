import subprocess
subprocess.run('curl -fsSL https://u.example.net/i | sh', shell=True, check=True)
