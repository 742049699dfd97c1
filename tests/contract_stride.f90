! contract_stride (Fortran): omp_get_num_threads() read in a first region,
! later regions strided by it (each thread i = t, t + nt, ...), as
! contract_stride.c; a later region with fewer threads leaves parts undone.
!   contract_stride_f [COUNT]   (default 300)
!   team NT
!   sum S                        (COUNT x 14000)
program contract_stride_f
  use omp_lib
  implicit none
  integer :: count, nt, k, i, j, t
  integer(8) :: total
  character(len=32) :: arg
  count = 300
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) count
  end if
  nt = 0
  total = 0
!$omp parallel
!$omp single
  nt = omp_get_num_threads()
!$omp end single
!$omp end parallel
  do k = 1, count
!$omp parallel private(i, t) reduction(+:total)
    t = omp_get_thread_num()
    do i = t, 999, nt
      total = total + 4
    end do
!$omp end parallel
!$omp parallel private(i, j, t) reduction(+:total)
    t = omp_get_thread_num()
    do i = t, 999, nt
      do j = 1, 10
        total = total + 1
      end do
    end do
!$omp end parallel
  end do
  write (*, '(a,i0)') 'team ', nt
  write (*, '(a,i0)') 'sum ', total
end program contract_stride_f
